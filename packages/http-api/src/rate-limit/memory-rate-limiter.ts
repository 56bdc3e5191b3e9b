import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimitDecision, RateLimiter } from '@dms/core';

/** The memory adapter of the RateLimiter port, on rate-limiter-flexible. */
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
