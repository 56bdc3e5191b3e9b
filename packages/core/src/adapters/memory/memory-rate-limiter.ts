import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { AccessLimits, RateLimiter } from '../../ports/rate-limiter.js';
import { flexibleRateLimiter } from '../rate-limiter-flexible/flexible-rate-limiter.js';
import { rateLimitDefaults } from '../../defaults.js';

/**
 * The memory adapter of the RateLimiter port, on rate-limiter-flexible: one process's
 * counters. Its windows run on the system clock (the library reads Date.now() itself), not
 * on the core's injected clock.
 */
export function createMemoryRateLimiter(options: { limit: number; windowSeconds: number }): RateLimiter {
  return flexibleRateLimiter(new RateLimiterMemory({ points: options.limit, duration: options.windowSeconds }), options.limit);
}

/** The production budgets in memory: one-minute windows, rateLimitDefaults unless given. */
export function createMemoryAccessLimits(options: { requestsPerMinute?: number; failuresPerMinute?: number } = {}): AccessLimits {
  const { requestsPerMinute = rateLimitDefaults.requestsPerMinute, failuresPerMinute = rateLimitDefaults.authFailuresPerMinute } = options;
  return {
    perCredential: createMemoryRateLimiter({ limit: requestsPerMinute, windowSeconds: 60 }),
    perAddress: createMemoryRateLimiter({ limit: requestsPerMinute, windowSeconds: 60 }),
    authFailures: createMemoryRateLimiter({ limit: failuresPerMinute, windowSeconds: 60 }),
  };
}
