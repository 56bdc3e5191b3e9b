import type { z } from 'zod';
import type { Context } from 'hono';
import type { ScopeAction, ScopeController } from '@dms/core';
import type { Core } from '@dms/core/runtime';
import type { AppEnv } from '../http/env.js';
import type { ErrorStatus as TableStatus } from '../contracts/error-table.js';

export type Method = 'get' | 'post' | 'put' | 'delete';
export type Tag = 'nas_shares' | 'jobs' | 'schedules' | 'alerts' | 'notifications' | 'statistics' | 'nas' | 'pools' | 'snmp' | 'admin';
/** 302: a redirect to another site (the OpenID provider's sign-in page). */
export type SuccessStatus = 200 | 201 | 202 | 204 | 302;
/**
 * A status of the one table from domain error codes (contracts/error-table.ts), so a code the table
 * gains can be documented; but 405, which only a path answers that has no operation for the method.
 */
export type ErrorStatus = Exclude<TableStatus, 405>;

/** The scope an API key must hold (a pair of the core's scope catalogue); users hold every scope. */
export type ScopeRequirement = {
  [C in ScopeController]: {
    readonly controller: C;
    readonly action: ScopeAction<C>;
    /** Said after the scope in the description, e.g. which scope also reveals passwords. */
    readonly note?: string;
  };
}[ScopeController];

/** Controllers whose scopes have show and update (singletons such as the settings). */
export type SingletonController = { [C in ScopeController]: 'show' | 'update' extends ScopeAction<C> ? C : never }[ScopeController];

/** Controllers whose scopes cover the five CRUD actions. */
export type CrudController = { [C in ScopeController]: 'index' | 'create' | 'show' | 'update' | 'destroy' extends ScopeAction<C> ? C : never }[ScopeController];

export interface SuccessResponse {
  readonly status: SuccessStatus;
  readonly description: string;
  /** Absent for an answer without a body (204). */
  readonly schema?: z.ZodType;
  /** An example body, shown in the API reference. */
  readonly example?: unknown;
  /** Other media types the answer comes in, chosen by `Accept` (CSV beside JSON), each with its schema and an example. */
  readonly alternatives?: Readonly<Record<string, { readonly schema: z.ZodType; readonly example: string }>>;
  /** Headers of this answer beyond the common ones, by name: what each says (`Location` of a started job). */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * What the operation does with a request, given the core the app was built over. The OpenAPI
 * document never calls it: it is built from the rest of the operation, without a database.
 */
export type Handle = (c: Context<AppEnv>, core: Core) => Response | Promise<Response>;

/**
 * One REST operation, declared once: what it is (the router, the 405 table, the OpenAPI document
 * and the SDK's code sample are derived from it) and its handler (docs/decisions/133-one-operation-one-declaration.md).
 */
export interface Operation<Id extends string = string> {
  /** The SDK names its methods after it: a rename is a breaking change of @dms/sdk (operations/operation-ids.test.ts). */
  readonly operationId: Id;
  readonly method: Method;
  /** Below /api/v2, with `:param` segments (Hono syntax). */
  readonly path: string;
  /** The `:param` names of `path`, in order. */
  readonly pathParams: readonly string[];
  readonly summary: string;
  /** What the operation does beyond its summary (Markdown), shown below its scope. */
  readonly description?: string;
  readonly tag: Tag;
  /** Absent on the public operation and on those any valid credential may call. */
  readonly scope?: ScopeRequirement;
  /** Needs no credential (the app lists its path as public too). */
  readonly public?: true;
  readonly query?: z.ZodObject;
  readonly body?: z.ZodType;
  /**
   * An example request body, shown in the API reference and sent as it is by its "Test request":
   * it must be harmless to send (contracts/example-bodies.test.ts).
   */
  readonly bodyExample?: unknown;
  /** Set when `bodyExample` is a placeholder the server refuses as it is: why, shown as its summary. */
  readonly bodyExampleRefused?: string;
  readonly success: SuccessResponse;
  /** Other 2xx answers: a followed job is 202 while it runs, 200 once it has finished. */
  readonly otherSuccess?: readonly SuccessResponse[];
  /** Every error status the operation can answer; each answers a model_error. */
  readonly errors: readonly ErrorStatus[];
  /**
   * The `@dms/sdk` call shown as the operation's code sample in the API reference. The SDK's
   * tests type-check every sample against the SDK, so a renamed method fails there.
   */
  readonly sdkSample: string;
  readonly handle: Handle;
}

export type OperationInput<Id extends string> = Omit<Operation<Id>, 'pathParams' | 'errors'> & {
  /**
   * Statuses beyond those its shape implies (`impliedErrors`): what the operation's own rules
   * refuse, such as 409 for a taken name or 422 for a host outside `share_test_allowed_hosts`.
   */
  readonly errors?: readonly ErrorStatus[];
};

/**
 * Any operation can meet a malformed request, a missing or refused credential, a path over
 * the length limit, a rate limit, a failure of its own (500) and unavailable storage: all but
 * the last two are answered before the route runs.
 */
export const commonErrors: readonly ErrorStatus[] = [400, 401, 403, 414, 429, 500, 503];

/**
 * What an operation can answer because of its shape, so that no operation has to remember it:
 * the body limit answers 413 before the credential is checked, for every method but GET (a
 * DELETE or a bodiless PUT sent with a body too); a path parameter names a record that may not
 * exist (404); a body must be declared JSON (415) and is validated by the core (422). The probe test
 * (test/api-conventions/documented-statuses.test.ts) checks these against what handlers answer.
 */
export function impliedErrors(input: Pick<OperationInput<string>, 'method' | 'path' | 'body'>): ErrorStatus[] {
  return [
    ...commonErrors,
    ...(input.method === 'get' ? [] : [413 as const]),
    ...(input.path.includes('/:') ? [404 as const] : []),
    ...(input.body ? [415 as const, 422 as const] : []),
  ];
}

/** An operation with its path parameters from its path and its error statuses completed. */
export function defineOperation<const Id extends string>(input: OperationInput<Id>): Operation<Id> {
  return {
    ...input,
    pathParams: [...input.path.matchAll(/:([A-Za-z_]+)/g)].map((match) => match[1]!),
    errors: [...new Set([...impliedErrors(input), ...(input.errors ?? [])])].sort((a, b) => a - b),
  };
}
