import type { Context, Hono } from 'hono';
import type { OpenAPIHono, RouteConfig } from '@hono/zod-openapi';
import { z } from 'zod';
import type { AppEnv } from './env.js';
import { modelErrorSchema } from './openapi-schemas.js';
import type { Pipeline } from '../pipeline/pipeline.js';
import type { RouteHandler } from '../pipeline/step.js';

export type Method = 'get' | 'post' | 'put' | 'delete';

export interface RouteSpec {
  method: Method;
  /** Hono path below /api/v2, with `:param` segments. */
  path: string;
  summary: string;
  tag: string;
  /** `controller / action`, for the document; the core enforces it. */
  scope?: string;
  /** Needs no credential (listed in the app's public paths too). */
  public?: boolean;
  query?: z.ZodObject;
  body?: z.ZodType;
  success: { status: 200 | 201 | 202 | 204; description: string; schema?: z.ZodType };
  /** Statuses other than the success one and 400/401/403/500 that this route can answer. */
  errors?: number[];
  handler: (c: Context<AppEnv>) => Promise<Response>;
}

type HonoMethod = Uppercase<Method>;

const errorDescriptions: Record<number, string> = {
  400: 'bad request (malformed JSON, bad query parameter)',
  401: 'not authenticated',
  403: 'credential lacks the scope',
  404: 'not found',
  409: 'conflict',
  413: 'request body too large',
  422: 'validation failed',
  429: 'rate limited',
};

function toOpenApiPath(path: string): string {
  return path.replace(/:([A-Za-z_]+)/g, '{$1}');
}

function pathParams(path: string): z.ZodObject | undefined {
  const names = [...path.matchAll(/:([A-Za-z_]+)/g)].map((match) => match[1]!);
  if (names.length === 0) return undefined;
  return z.object(Object.fromEntries(names.map((name) => [name, z.string().describe('numeric id or name')])));
}

/**
 * Registers a route once: the Hono handler inside the request pipeline, its OpenAPI
 * operation, and its method in the table that answers 405 with `Allow`.
 */
export class RouteTable {
  readonly #allowed = new Map<string, Set<string>>();

  constructor(
    private readonly app: Hono<AppEnv>,
    private readonly openapi: OpenAPIHono<AppEnv>,
    private readonly base: string,
    private readonly pipeline: Pipeline,
  ) {}

  /** A route outside the API description and the 405 table (service description, health, metrics). */
  addUnlisted(method: HonoMethod, fullPath: string, handler: RouteHandler): void {
    this.app.on(method, fullPath, this.pipeline.wrap(fullPath, handler));
  }

  add(spec: RouteSpec): void {
    const fullPath = this.base + spec.path;
    this.addUnlisted(spec.method.toUpperCase() as HonoMethod, fullPath, spec.handler);
    const methods = this.#allowed.get(fullPath) ?? new Set<string>();
    methods.add(spec.method.toUpperCase());
    if (spec.method === 'get') methods.add('HEAD');
    this.#allowed.set(fullPath, methods);

    const params = pathParams(spec.path);
    const responses: RouteConfig['responses'] = {
      [spec.success.status]: {
        description: spec.success.description,
        ...(spec.success.schema ? { content: { 'application/json': { schema: spec.success.schema } } } : {}),
      },
    };
    for (const status of [400, 401, 403, ...(spec.errors ?? [])]) {
      responses[status] = { description: errorDescriptions[status] ?? 'error', content: { 'application/json': { schema: modelErrorSchema } } };
    }
    this.openapi.openAPIRegistry.registerPath({
      method: spec.method,
      path: toOpenApiPath(spec.path),
      summary: spec.summary,
      tags: [spec.tag],
      ...(spec.scope ? { description: `Scope: \`${spec.scope}\`` } : {}),
      security: spec.public ? [] : [{ basic: [] }, { bearer: [] }],
      request: {
        ...(params ? { params } : {}),
        ...(spec.query ? { query: spec.query } : {}),
        ...(spec.body ? { body: { required: true, content: { 'application/json': { schema: spec.body } } } } : {}),
      },
      responses,
    });
  }

  /** Methods that a path answers, for 405; undefined when no route matches the path. */
  allowedMethods(path: string): string[] | undefined {
    for (const [pattern, methods] of this.#allowed) {
      if (matches(pattern, path)) return [...methods];
    }
    return undefined;
  }
}

function matches(pattern: string, path: string): boolean {
  const want = pattern.split('/');
  // No trailing-slash stripping: Hono routes strictly, so `/nas_shares/` is a 404, not a 405.
  const have = path.split('/');
  if (want.length !== have.length) return false;
  return want.every((segment, i) => segment.startsWith(':') ? (have[i] ?? '') !== '' : segment === have[i]);
}
