import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { DomainError, toDomainError as coreToDomainError, type ModelError } from '@dms/core';
import { statusByCode } from '../contracts/error-table.js';
import type { AppEnv } from './env.js';
import { responseHeaders } from './common-headers.js';
import { isClientAbort } from './json-body.js';

export const authenticateChallenge = 'Basic realm="dms", charset="UTF-8", Bearer realm="dms"';

/**
 * Anything thrown becomes a model_error: Hono's own exceptions and a dropped client here,
 * the rest as every host maps it (the core's toDomainError).
 */
export function toDomainError(error: unknown): DomainError {
  if (error instanceof HTTPException) {
    if (error.status === 400) return new DomainError('bad_request', 'malformed JSON in request body', { details: { body: [{ error: 'invalid' }] } });
    if (error.status === 413) return new DomainError('payload_too_large', 'request body is too large');
  }
  // Before the core's storage check: a reset client socket says ECONNRESET too, yet no database
  // failed. Nobody reads this answer; the access log and metrics count the request as 499 (observe.ts).
  if (isClientAbort(error)) return new DomainError('bad_request', error.message, { details: { body: [{ error: 'invalid' }] }, cause: error });
  return coreToDomainError(error);
}

export function errorResponse(c: Context<AppEnv>, error: DomainError, extraHeaders: Record<string, string> = {}): Response {
  const status = statusByCode[error.code];
  const body: ModelError = { details: error.details, messages: error.messages };
  const headers = { ...extraHeaders };
  if (status === 401) headers['WWW-Authenticate'] = authenticateChallenge;
  if (error.retryAfter !== undefined) headers['Retry-After'] = String(error.retryAfter);
  // Errors carry no ETag: they are not representations to cache.
  return new Response(JSON.stringify(body), { status, headers: responseHeaders(c, { ...headers, 'Content-Type': 'application/json' }) });
}
