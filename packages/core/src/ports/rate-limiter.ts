/**
 * Rate limiter port: a fixed window of `limit` points per key. The memory adapter serves
 * one process; a shared store (PostgreSQL, Redis) can serve replicas behind the same port.
 */
export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
}

export interface RateLimiter {
  readonly limit: number;
  consume(key: string, points?: number): Promise<RateLimitDecision>;
  /** Reads without consuming. */
  peek(key: string): Promise<RateLimitDecision>;
  reset(key: string): Promise<void>;
}

/**
 * The budgets of the access service (services/access-service.ts). Separate limiters, so a
 * shared store can hold one and memory another, and tests can shrink just one.
 */
export interface AccessLimits {
  /** Requests per credential (DMS_RATE_LIMIT_PER_MINUTE). */
  perCredential: RateLimiter;
  /** Requests per client address without a valid credential, and every password check. */
  perAddress: RateLimiter;
  /** Failed authentications per address and claimed user (10 a minute). */
  authFailures: RateLimiter;
}
