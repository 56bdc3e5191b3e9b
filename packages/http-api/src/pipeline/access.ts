import type { Context } from 'hono';
import { calledFrom, whenReady, type CallOrigin } from '@dms/core';
import { bearerCredential, type AccessRequest, type AccessService, type Credential, type RateLimitDecision } from '@dms/core/runtime';
import { requestHeader } from '../http/request-header.js';
import { requestIdOf, setRateLimitHeaders } from '../http/common-headers.js';
import { credentialFromAuthorization } from '../http/credential-header.js';
import { sessionFromCookie } from '../http/session-cookie.js';
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
    private readonly c: Context<AppEnv>,
    private readonly hooks: AccessHooks,
    readonly credential: C,
  ) {}

  get address(): string {
    return (this.#address ??= this.hooks.clientAddress(this.c));
  }

  /** Sign-ins are audited as REST calls, under the request id of their answer. */
  get via(): 'rest' {
    return 'rest';
  }

  get requestId(): string | undefined {
    return requestIdOf(this.c);
  }

  onRateLimit(decision: RateLimitDecision): void {
    setRateLimitHeaders(this.c, decision);
  }

  onAuthFailure(): void {
    this.hooks.onAuthFailure?.();
  }
}

/**
 * Where a REST call came from, as the audit log records it: the client's address as the rate
 * limiter sees it and the answer's X-Request-Id. Read through the request when an event is
 * written, so a request that changes nothing (nearly every one) resolves no address for it.
 * The request stays private: the principal carrying this origin never exposes its credential.
 */
class RestCallOrigin implements CallOrigin {
  readonly #request: AccessRequest;
  constructor(request: AccessRequest) {
    this.#request = request;
  }

  get via(): 'rest' {
    return 'rest';
  }

  get clientAddress(): string {
    return this.#request.address;
  }

  get requestId(): string | undefined {
    return this.#request.requestId;
  }

  /** A plain copy, should a principal ever be logged or cloned. */
  toJSON(): CallOrigin {
    const { requestId } = this;
    return { via: this.via, clientAddress: this.clientAddress, ...(requestId === undefined ? {} : { requestId }) };
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
  // No promise of its own: a known credential on in-memory budgets passes straight on.
  return (c, next) => {
    if (!publicPaths.has(c.req.path)) {
      const authorization = requestHeader(c, 'authorization');
      // A browser signed in through the provider sends its session cookie instead (read only then).
      const cookieToken = authorization === undefined ? sessionFromCookie(c) : undefined;
      const credential = cookieToken === undefined ? credentialFromAuthorization(authorization) : bearerCredential(cookieToken);
      const request = new RestAccessRequest(c, hooks, credential);
      return whenReady(access.authenticateRequest(request), (principal) => {
        c.set('principal', calledFrom(principal, new RestCallOrigin(request)));
        return next();
      });
    }
    const request = new RestAccessRequest(c, hooks, undefined);
    return whenReady(access.guardPublicRequest(request), () => {
      c.set('loginRequest', (credential) => new RestAccessRequest(c, hooks, credential));
      c.set('publicOrigin', () => new RestCallOrigin(request).toJSON());
      return next();
    });
  };
}
