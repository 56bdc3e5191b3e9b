import type { CallOrigin, Principal } from '@dms/core';
import type { LoginRequest, RateLimitDecision } from '@dms/core/runtime';

/** The login route's request to the access service, built by the authenticate step. */
export type LoginRequestFactory = (credential: LoginRequest['credential']) => LoginRequest;

/**
 * What every response to one request carries, gathered by the pipeline steps in fixed
 * fields and turned into header names once, when the response is built. Adding hyphenated
 * properties to a plain object one step at a time cost more than the route itself.
 */
export interface CommonHeaders {
  requestId: string;
  /** The credential's or the address's budget, sent as RateLimit-* headers. */
  rateLimit: RateLimitDecision | undefined;
  /** CORS headers for a request that came with an Origin. */
  cors: Record<string, string> | undefined;
}

/**
 * The request's own types live here, below every step that reads or writes them, so the
 * helpers (common-headers.ts) and the steps (pipeline/) import them without a loop.
 */
export interface AppEnv {
  Variables: {
    /** Set by the authenticate step for a request with valid credentials. */
    principal: Principal;
    /** Set by the authenticate step on public paths: the login route's request to the access service. */
    loginRequest: LoginRequestFactory;
    /** Set by the authenticate step on public paths: where the request came from, for the audit log of a sign-in. */
    publicOrigin: () => CallOrigin;
    /** Started by the observe step (request id), filled by later steps, written with the body (http/respond.ts). */
    commonHeaders: CommonHeaders;
  };
}
