import type { Context } from 'hono';
import type { AccessRequest, AccessService, RateLimitDecision } from '@dms/core';
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
/**
 * One request as the access service sees it. A class, not an object literal with a getter:
 * a stable shape per request on the hot path, and the address resolved on first read only
 * (an authenticated request with a known credential never needs it).
 */
class RestAccessRequest implements AccessRequest {
  #address: string | undefined;
  constructor(
    private readonly c: Context,
    private readonly hooks: AccessHooks,
    readonly authorization: string | undefined = undefined,
    readonly body: unknown = undefined,
  ) {}

  get address(): string {
    return (this.#address ??= this.hooks.clientAddress(this.c));
  }

  onRateLimit(decision: RateLimitDecision): void {
    setRateLimitHeaders(this.c, decision);
  }

  onAuthFailure(): void {
    this.hooks.onAuthFailure?.();
  }
}

export function authenticate(access: AccessService, publicPaths: ReadonlySet<string>, loginPath: string, hooks: AccessHooks): Step {
  return async (c, next) => {
    if (!publicPaths.has(c.req.path)) {
      c.set('principal', await access.authenticateRequest(new RestAccessRequest(c, hooks, requestHeader(c, 'authorization'))));
      return next();
    }
    await access.guardPublicRequest(new RestAccessRequest(c, hooks));
    if (c.req.path !== loginPath || c.req.method !== 'POST') return next();
    return access.throttleLogin(new RestAccessRequest(c, hooks, undefined, await bodyOrUndefined(c)), next);
  };
}
