import type { Context } from 'hono';
import type { RateLimitDecision } from '@dms/core/runtime';
import type { AppEnv } from './env.js';

export function startCommonHeaders(c: Context<AppEnv>, requestId: string): void {
  c.set('commonHeaders', { requestId, rateLimit: undefined, cors: undefined });
}

/** The request's id, for log lines; undefined before the pipeline has started. */
export function requestIdOf(c: Context<AppEnv>): string | undefined {
  return c.get('commonHeaders')?.requestId;
}

/** Records a rate-limit decision; a later one (a failed login's) replaces an earlier one. */
export function setRateLimitHeaders(c: Context<AppEnv>, decision: RateLimitDecision): void {
  const common = c.get('commonHeaders');
  if (common) common.rateLimit = decision;
}

export function setCorsHeaders(c: Context<AppEnv>, headers: Record<string, string>): void {
  const common = c.get('commonHeaders');
  if (common) common.cors = headers;
}

/**
 * A new header object: the common headers, then `headers`. Every answer says nosniff, so
 * a browser never reads a JSON body (which can echo client text) as HTML or script.
 */
export function responseHeaders(c: Context<AppEnv>, headers?: Record<string, string>): Record<string, string> {
  const common = c.get('commonHeaders');
  if (!common) return { 'X-Content-Type-Options': 'nosniff', ...headers };
  const rate = common.rateLimit;
  const out: Record<string, string> = rate
    ? {
        'X-Request-Id': common.requestId,
        'X-Content-Type-Options': 'nosniff',
        'RateLimit-Limit': String(rate.limit),
        'RateLimit-Remaining': String(rate.remaining),
        'RateLimit-Reset': String(Math.ceil(rate.resetMs / 1000)),
      }
    : { 'X-Request-Id': common.requestId, 'X-Content-Type-Options': 'nosniff' };
  if (common.cors) Object.assign(out, common.cors);
  return headers ? Object.assign(out, headers) : out;
}
