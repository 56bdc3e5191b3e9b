import type { Context } from 'hono';
import type { AccessRequest, AccessService, Credential, RateLimitDecision } from '@dms/core/runtime';
import { requestHeader } from '../http/request-header.js';
import { setRateLimitHeaders } from '../http/common-headers.js';
import { credentialFromAuthorization } from '../http/credential-header.js';
import type { AppEnv } from '../http/env.js';
import type { Step } from './step.js';

export interface AccessHooks {
  onAuthFailure?: () => void;
  /** The client's address (the TCP peer, or what trusted proxies forwarded). */
  clientAddress: (c: Context) => string;
}

/**
 * One request as the access service sees it. A class, not an object literal with a getter:
 * a stable shape per request on the hot path, and the address resolved on first read only
 * (an authenticated request with a known credential never needs it).
 */
class RestAccessRequest<C extends Credential | undefined> implements AccessRequest {
  #address: string | undefined;
  constructor(
    private readonly c: Context,
    private readonly hooks: AccessHooks,
    readonly credential: C,
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

/**
 * The REST side of the core's access service: every /api/v2 path but the public ones needs
 * a credential, parsed here from the Authorization header into the core's typed credential.
 * The rules (budgets, lockouts, events) are the core's; this step only reads the transport
 * and writes each budget decision into the RateLimit-* headers. It reads no body: the login
 * route does, after this step charged its address, through `loginRequest`.
 */
export function authenticate(access: AccessService, publicPaths: ReadonlySet<string>, hooks: AccessHooks): Step {
  return async (c, next) => {
    if (!publicPaths.has(c.req.path)) {
      const credential = credentialFromAuthorization(requestHeader(c, 'authorization'));
      c.set('principal', await access.authenticateRequest(new RestAccessRequest(c, hooks, credential)));
      return next();
    }
    await access.guardPublicRequest(new RestAccessRequest(c, hooks, undefined));
    (c as Context<AppEnv>).set('loginRequest', (credential) => new RestAccessRequest(c, hooks, credential));
    return next();
  };
}
