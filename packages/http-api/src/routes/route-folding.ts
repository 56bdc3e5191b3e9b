import type { Context, Handler } from 'hono';
import type { AppEnv } from '../http/env.js';

/** A route: its method, its pattern and its handler inside the request pipeline. */
export interface RegisteredRoute {
  method: string;
  path: string;
  handler: Handler<AppEnv>;
}

/** A static segment folded into a parameter: the route applies where the parameter has this value. */
interface Guard {
  param: string;
  value: string;
}

const isParam = (segment: string) => segment.startsWith(':');

/**
 * Hono's RegExpRouter (one regular expression a method) refuses a static segment where another
 * route of the method has a parameter after the same prefix (`/api_keys/current` beside
 * `/api_keys/:api_key_id`), and SmartRouter then falls back to TrieRouter, which cost a show ~3 µs of CPU more (docs/decisions/080-request-pipeline.md). Such a static
 * segment is registered as the parameter instead, with a guard on its value: the routes of one
 * method and pattern are tried in the order they were added (the first that applies wins, as
 * before), and a request none applies to is not found, as it was.
 */
export function foldRoutes(routes: readonly RegisteredRoute[]): RegisteredRoute[] {
  const patterns = routes.map(({ method, path }) => ({ method, segments: path.split('/') }));
  const groups = new Map<string, { method: string; path: string; members: { guards: Guard[]; handler: Handler<AppEnv> }[] }>();
  for (const { method, path: pattern, handler } of routes) {
    const { path, guards } = fold(method, pattern.split('/'), patterns);
    const key = `${method} ${path}`;
    const group = groups.get(key) ?? { method, path, members: [] };
    group.members.push({ guards, handler });
    groups.set(key, group);
  }
  return [...groups.values()].map(({ method, path, members }) => {
    const only = members[0]!;
    if (members.length === 1 && only.guards.length === 0) return { method, path, handler: only.handler };
    return { method, path, handler: dispatcher(members) };
  });
}

interface Pattern {
  method: string;
  segments: readonly string[];
}

/** `segments` (a route's, changed in place) with each static segment beside a parameter made that parameter. */
function fold(method: string, segments: string[], patterns: readonly Pattern[]): { path: string; guards: Guard[] } {
  const guards: Guard[] = [];
  for (const [index, segment] of segments.entries()) {
    if (isParam(segment)) continue;
    const param = parameterBeside(segments, index, method, patterns);
    if (param === undefined) continue;
    guards.push({ param: param.slice(1), value: segment });
    segments[index] = param;
  }
  return { path: segments.join('/'), guards };
}

/** The parameter another route of `method` has at `index`, after the same segments as `segments` before it. */
function parameterBeside(segments: readonly string[], index: number, method: string, patterns: readonly Pattern[]): string | undefined {
  for (const other of patterns) {
    if (other.method !== method) continue;
    const theirs = other.segments;
    const param = theirs[index];
    if (param === undefined || !isParam(param)) continue;
    const samePrefix = segments.slice(0, index).every((segment, i) => segment === theirs[i] || (isParam(segment) && isParam(theirs[i] ?? '')));
    if (samePrefix) return param;
  }
  return undefined;
}

function dispatcher(members: readonly { guards: Guard[]; handler: Handler<AppEnv> }[]): Handler<AppEnv> {
  return (c: Context<AppEnv>, next) => {
    for (const { guards, handler } of members) {
      if (guards.every(({ param, value }) => c.req.param(param) === value)) return handler(c, next);
    }
    return c.notFound();
  };
}
