import type { ActiveJobStatus, AttributeError } from './types.js';

/** What went wrong, by status, for a `switch` that does not compare numbers. */
export type DmsErrorKind =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'too_large'
  | 'validation'
  | 'rate_limited'
  | 'unavailable'
  | 'server';

const kinds: Readonly<Record<number, DmsErrorKind>> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'too_large',
  414: 'too_large',
  // A body not declared application/json: the SDK always declares it, so only a hand-made request meets it.
  415: 'bad_request',
  431: 'too_large',
  422: 'validation',
  429: 'rate_limited',
  503: 'unavailable',
};

export interface DmsApiErrorInit {
  status: number;
  method: string;
  url: string;
  details?: Record<string, AttributeError[]>;
  messages?: string[];
  requestId?: string;
  retryAfter?: number;
}

/**
 * An error answer of the API (a model_error body). Recognise it with `instanceof` or, across
 * realms and bundles where classes differ, with `error.name === 'DmsApiError'`.
 */
export class DmsApiError extends Error {
  override readonly name = 'DmsApiError';
  readonly status: number;
  readonly kind: DmsErrorKind;
  /** Attribute (or parameter) name → what is wrong with it. */
  readonly details: Record<string, AttributeError[]>;
  readonly messages: string[];
  /** The server's X-Request-Id: quote it when reporting a problem. */
  readonly requestId: string | undefined;
  /** Seconds to wait before trying again (429, 503). */
  readonly retryAfter: number | undefined;
  readonly method: string;
  readonly url: string;

  constructor(init: DmsApiErrorInit) {
    const messages = init.messages ?? [];
    super(`${init.method} ${init.url}: ${init.status} ${messages.join('; ') || 'error'}`);
    this.status = init.status;
    this.kind = kinds[init.status] ?? (init.status >= 500 ? 'server' : 'bad_request');
    this.details = init.details ?? {};
    this.messages = messages;
    this.requestId = init.requestId;
    this.retryAfter = init.retryAfter;
    this.method = init.method;
    this.url = init.url;
  }
}

/** A share test or scan that ended `failed`: `job.message` says why, `job.steps` where. */
export class DmsJobFailedError extends Error {
  override readonly name = 'DmsJobFailedError';
  readonly jobId: string;
  readonly steps: NonNullable<ActiveJobStatus['steps']>;

  constructor(readonly job: ActiveJobStatus) {
    super(`job ${job.job_id} failed: ${job.message ?? 'no reason given'}`);
    this.jobId = job.job_id;
    this.steps = job.steps ?? [];
  }
}

export interface DmsRedirectErrorInit {
  status: number;
  method: string;
  url: string;
  location: string | undefined;
  reason: 'other_origin' | 'too_many' | 'hidden';
}

/**
 * A redirect the SDK did not follow. It follows one only within the origin of `baseUrl`:
 * elsewhere the request's credential and body (a share's or a user's password) would go to a
 * server nobody chose. dms itself never redirects, so this is a proxy or a moved service: if
 * `location` is where the service now lives, make that the client's `baseUrl`.
 */
export class DmsRedirectError extends Error {
  override readonly name = 'DmsRedirectError';
  /** The redirect's status (301, 302, 303, 307, 308), or 0 where a browser hides it. */
  readonly status: number;
  /** Where the server pointed; undefined where a browser hides it. */
  readonly location: string | undefined;
  readonly reason: DmsRedirectErrorInit['reason'];
  readonly method: string;
  readonly url: string;

  constructor(init: DmsRedirectErrorInit) {
    const why =
      init.reason === 'other_origin'
        ? `redirected to another origin (${init.location ?? 'unknown'}); not followed, so the credential and body stay with ${new URL(init.url).origin}`
        : init.reason === 'too_many'
          ? 'too many redirects'
          : 'redirected (the browser does not say where); not followed';
    super(`${init.method} ${init.url}: ${init.status || 'redirect'} ${why}`);
    this.status = init.status;
    this.location = init.location;
    this.reason = init.reason;
    this.method = init.method;
    this.url = init.url;
  }
}

export interface DmsNetworkErrorInit {
  method: string;
  url: string;
  /** What fetch threw: Node's `TypeError: fetch failed`, its `cause` the socket's error. */
  cause: unknown;
}

/** The innermost message of an error chain: `connect ECONNREFUSED 127.0.0.1:8080`, not `fetch failed`. */
function rootMessage(error: unknown): string {
  let current = error;
  for (let depth = 0; depth < 5 && current instanceof Error && current.cause !== undefined; depth++) current = current.cause;
  return current instanceof Error ? current.message : String(current);
}

/**
 * No answer at all: the server is down, the address or port is wrong, DNS or TLS failed, or the
 * connection dropped. Thrown after the SDK's retries of an idempotent call (a POST is tried
 * once), so the message names the URL and the cause that fetch's bare `fetch failed` hides.
 * Recognise it with `instanceof` or `error.name === 'DmsNetworkError'`.
 */
export class DmsNetworkError extends Error {
  override readonly name = 'DmsNetworkError';
  readonly method: string;
  readonly url: string;

  constructor(init: DmsNetworkErrorInit) {
    super(`${init.method} ${init.url}: no answer (${rootMessage(init.cause)})`, { cause: init.cause });
    this.method = init.method;
    this.url = init.url;
  }
}

/** `instanceof` for code that may hold errors of another copy of the SDK. */
export function isDmsApiError(value: unknown): value is DmsApiError {
  return value instanceof Error && value.name === 'DmsApiError';
}

/** Seconds of a Retry-After header, given as seconds or as an HTTP date. */
export function parseRetryAfter(value: string | null): number | undefined {
  if (!value) return undefined;
  const seconds = /^\d+$/.test(value) ? Number(value) : (Date.parse(value) - Date.now()) / 1000;
  return Number.isFinite(seconds) ? Math.max(0, Math.ceil(seconds)) : undefined;
}

function isModelError(body: unknown): body is { details?: Record<string, AttributeError[]>; messages?: string[] } {
  return typeof body === 'object' && body !== null && ('messages' in body || 'details' in body);
}

/** The error for an answer that is not 2xx; `body` is its parsed JSON, or its text. */
export function apiError(method: string, response: Response, body: unknown): DmsApiError {
  const model = isModelError(body) ? body : { messages: typeof body === 'string' && body ? [body] : [] };
  return new DmsApiError({
    status: response.status,
    method,
    url: response.url,
    ...model,
    requestId: response.headers.get('x-request-id') ?? undefined,
    retryAfter: parseRetryAfter(response.headers.get('retry-after')),
  });
}
