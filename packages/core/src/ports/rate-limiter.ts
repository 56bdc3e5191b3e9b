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
