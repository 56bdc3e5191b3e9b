import type { AccessLimits, RateLimitDecision, RateLimiter } from '../../ports/rate-limiter.js';
import { rateLimitDefaults } from '../../defaults.js';

interface Window {
  consumed: number;
  endsAt: number;
}

/**
 * The memory adapter of the RateLimiter port: one process's fixed windows, answered at once.
 * Its windows run on the system clock (Date.now), not on the core's injected clock, as the
 * shared store's do (rate-limiter-flexible reads Date.now itself).
 *
 * Written here rather than taken from rate-limiter-flexible's RateLimiterMemory, whose API is
 * promises only: every authenticated request charges one or two budgets, and a promise per
 * charge kept the whole request off its synchronous path (docs/decisions/081-synchronous-request-path.md). The
 * windows are kept in the order they opened, each as long as the next, so the expired ones are
 * always at the front: each charge drops those and stops at the first open one, and a flood of
 * addresses costs the Map its entries and nothing else (no timer per key, no full sweep).
 */
export function createMemoryRateLimiter(options: { limit: number; windowSeconds: number }): RateLimiter {
  const { limit } = options;
  const windowMs = options.windowSeconds * 1000;
  const windows = new Map<string, Window>();

  const dropExpired = (now: number) => {
    for (const [key, window] of windows) {
      if (window.endsAt > now) return;
      windows.delete(key);
    }
  };
  const decide = (window: Window, allowed: boolean, now: number): RateLimitDecision => ({
    allowed,
    limit,
    remaining: Math.max(0, limit - window.consumed),
    resetMs: window.endsAt - now,
  });

  return {
    limit,
    consume(key, points = 1) {
      const now = Date.now();
      dropExpired(now);
      let window = windows.get(key);
      // Expired yet still here only if the system clock stepped back.
      if (window === undefined || window.endsAt <= now) {
        windows.delete(key);
        window = { consumed: 0, endsAt: now + windowMs };
        windows.set(key, window);
      }
      window.consumed += points;
      return decide(window, window.consumed <= limit, now);
    },
    peek(key) {
      const now = Date.now();
      const window = windows.get(key);
      if (window === undefined || window.endsAt <= now) return { allowed: true, limit, remaining: limit, resetMs: 0 };
      return decide(window, window.consumed < limit, now);
    },
    reset(key) {
      windows.delete(key);
    },
  };
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
