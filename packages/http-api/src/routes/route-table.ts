import type { Hono } from 'hono';
import type { AppEnv } from '../http/env.js';
import type { Pipeline } from '../pipeline/pipeline.js';
import type { RouteHandler } from '../pipeline/step.js';
import type { Method, RouteContract } from '../contracts/route-contract.js';
import type { OperationId } from '../contracts/operation-ids.js';
import { foldRoutes, type RegisteredRoute } from './route-folding.js';

/** One handler per operation of the route contracts, bound by operation id. */
export type OperationHandlers = Readonly<Record<OperationId, RouteHandler>>;

type HonoMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
const honoMethods: Readonly<Record<Method, HonoMethod>> = { get: 'GET', post: 'POST', put: 'PUT', delete: 'DELETE' };

/**
 * Registers routes: each handler inside the request pipeline, and each contract's method
 * in the table that answers 405 with `Allow`. The API description is not built here: it
 * comes from the contracts alone (contracts/openapi-document.ts). Routes reach Hono at
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

  /** Every contract with its handler, in the contracts' order (the first matching pattern wins). */
  bind(contracts: readonly RouteContract[], handlers: OperationHandlers): void {
    for (const contract of contracts) this.#add(contract, handlers[contract.operationId]);
  }

  #add(contract: RouteContract, handler: RouteHandler): void {
    const fullPath = this.base + contract.path;
    const method = honoMethods[contract.method];
    this.addUnlisted(method, fullPath, handler);
    const methods = this.#allowed.get(fullPath) ?? new Set<string>();
    methods.add(method);
    if (contract.method === 'get') methods.add('HEAD');
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
