import type { MaybePromise } from './maybe-promise.js';

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

/** Answers at once where its store is in memory (see MaybePromise), later from a shared store. */
export interface RateLimiter {
  readonly limit: number;
  consume(key: string, points?: number): MaybePromise<RateLimitDecision>;
  /** Reads without consuming. */
  peek(key: string): MaybePromise<RateLimitDecision>;
  reset(key: string): MaybePromise<void>;
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
