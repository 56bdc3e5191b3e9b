import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RateLimitDecision, RateLimiter } from '../../ports/rate-limiter.js';

/**
 * The RateLimiter port over any rate-limiter-flexible store (memory, PostgreSQL): the library
 * rejects with a RateLimiterRes when a key is over budget, and with an Error when its store
 * fails; the first is a decision, the second an error.
 */
export function flexibleRateLimiter(limiter: RateLimiterAbstract, limit: number): RateLimiter {
  const decide = (res: RateLimiterRes, allowed: boolean): RateLimitDecision => ({
    allowed,
    limit,
    remaining: Math.max(0, res.remainingPoints),
    resetMs: res.msBeforeNext,
  });
  return {
    limit,
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
      if (!res) return { allowed: true, limit, remaining: limit, resetMs: 0 };
      return decide(res, res.consumedPoints < limit);
    },
    async reset(key) {
      await limiter.delete(key);
    },
  };
}
