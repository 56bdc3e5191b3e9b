import type { Hono } from 'hono';
import type { AppEnv } from '../http/env.js';
import type { Pipeline } from '../pipeline/pipeline.js';
import type { Core } from '@dms/core/runtime';
import type { RouteHandler } from '../pipeline/step.js';
import type { Method, Operation } from '../operations/operation.js';
import { foldRoutes, type RegisteredRoute } from './route-folding.js';

type HonoMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
const honoMethods: Readonly<Record<Method, HonoMethod>> = { get: 'GET', post: 'POST', put: 'PUT', delete: 'DELETE' };

/**
 * Registers routes: each handler inside the request pipeline, and each operation's method
 * in the table that answers 405 with `Allow`. The API description is not built here: it
 * comes from the operations alone (contracts/openapi-document.ts). Routes reach Hono at
 * `register()`, once all are known, folded so that Hono's fastest router takes them all
 * (route-folding.ts).
 */
export class RouteTable {
  readonly #allowed = new Map<string, Set<string>>();
  readonly #routes: RegisteredRoute[] = [];

  constructor(
    private readonly app: Hono<AppEnv>,
    private readonly base: string,
    private readonly pipeline: Pipeline,
  ) {}

  /** A route outside the API description and the 405 table (service description, health, metrics). */
  addUnlisted(method: HonoMethod, fullPath: string, handler: RouteHandler): void {
    this.#routes.push({ method, path: fullPath, handler: this.pipeline.wrap(fullPath, handler) });
  }

  /** Hands every route added to Hono: once, after the last. */
  register(): void {
    for (const { method, path, handler } of foldRoutes(this.#routes.splice(0))) this.app.on(method, path, handler);
  }

  /** Every operation with its handler over `core`, in the operations' order (the first matching pattern wins). */
  bind(operations: readonly Operation[], core: Core): void {
    for (const operation of operations) {
      const { handle } = operation;
      this.#add(operation, (c) => handle(c, core));
    }
  }

  #add(operation: Operation, handler: RouteHandler): void {
    const fullPath = this.base + operation.path;
    const method = honoMethods[operation.method];
    this.addUnlisted(method, fullPath, handler);
    const methods = this.#allowed.get(fullPath) ?? new Set<string>();
    methods.add(method);
    if (operation.method === 'get') methods.add('HEAD');
    this.#allowed.set(fullPath, methods);
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
  return want.every((segment, i) => (segment.startsWith(':') ? (have[i] ?? '') !== '' : segment === have[i]));
}
