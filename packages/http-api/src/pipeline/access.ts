import type { Context } from 'hono';
import type { AccessRequest, AccessService } from '@dms/core';
import { requestHeader } from '../http/request-header.js';
import { setRateLimitHeaders } from '../http/common-headers.js';
import type { Step } from './step.js';

export interface AccessHooks {
  onAuthFailure?: () => void;
  /** The client's address (the TCP peer, or what trusted proxies forwarded). */
  clientAddress: (c: Context) => string;
}

/** The login body's claimed user name is all the throttle needs; the route validates the body. */
async function bodyOrUndefined(c: Context): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    return undefined;
  }
}

/**
 * The REST side of the core's access service: every /api/v2 path but the public ones needs
 * a credential. The rules (budgets, lockouts, events) are the core's; this step only reads
 * the transport and writes each budget decision into the RateLimit-* headers.
 */
export function authenticate(access: AccessService, publicPaths: ReadonlySet<string>, loginPath: string, hooks: AccessHooks): Step {
  return async (c, next) => {
    const request: AccessRequest = { address: hooks.clientAddress(c), onRateLimit: (decision) => setRateLimitHeaders(c, decision), onAuthFailure: hooks.onAuthFailure };
    if (!publicPaths.has(c.req.path)) {
      c.set('principal', await access.authenticateRequest({ ...request, authorization: requestHeader(c, 'authorization') }));
      return next();
    }
    await access.guardPublicRequest(request);
    if (c.req.path !== loginPath || c.req.method !== 'POST') return next();
    return access.throttleLogin({ ...request, body: await bodyOrUndefined(c) }, next);
  };
}
