import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { AccessLimits, RateLimitDecision, RateLimiter } from '../../ports/rate-limiter.js';

/**
 * The memory adapter of the RateLimiter port, on rate-limiter-flexible: one process's
 * counters. Its windows run on the system clock (the library reads Date.now() itself), not
 * on the core's injected clock.
 */
export function createMemoryRateLimiter(options: { limit: number; windowSeconds: number }): RateLimiter {
  const limiter = new RateLimiterMemory({ points: options.limit, duration: options.windowSeconds });
  const decide = (res: RateLimiterRes, allowed: boolean): RateLimitDecision => ({
    allowed,
    limit: options.limit,
    remaining: Math.max(0, res.remainingPoints),
    resetMs: res.msBeforeNext,
  });
  return {
    limit: options.limit,
    async consume(key, points = 1) {
      try {
        return decide(await limiter.consume(key, points), true);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return decide(rejection, false);
        throw rejection;
      }
    },
    async peek(key) {
      const res = await limiter.get(key);
      if (!res) return { allowed: true, limit: options.limit, remaining: options.limit, resetMs: 0 };
      return decide(res, res.consumedPoints < options.limit);
    },
    async reset(key) {
      await limiter.delete(key);
    },
  };
}

/** The production budgets in memory: one-minute windows, 10 failed authentications a minute. */
export function createMemoryAccessLimits(options: { requestsPerMinute?: number; failuresPerMinute?: number } = {}): AccessLimits {
  const { requestsPerMinute = 600, failuresPerMinute = 10 } = options;
  return {
    perCredential: createMemoryRateLimiter({ limit: requestsPerMinute, windowSeconds: 60 }),
    perAddress: createMemoryRateLimiter({ limit: requestsPerMinute, windowSeconds: 60 }),
    authFailures: createMemoryRateLimiter({ limit: failuresPerMinute, windowSeconds: 60 }),
  };
}
