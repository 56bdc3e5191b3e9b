import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryRateLimiter } from './memory-rate-limiter.js';

describe('createMemoryRateLimiter', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2026-11-26T00:00:00Z'), toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers at once, counting down a fixed window per key', () => {
    const limiter = createMemoryRateLimiter({ limit: 2, windowSeconds: 60 });
    expect(limiter.consume('a')).toEqual({ allowed: true, limit: 2, remaining: 1, resetMs: 60_000 });
    vi.advanceTimersByTime(10_000);
    expect(limiter.consume('a')).toEqual({ allowed: true, limit: 2, remaining: 0, resetMs: 50_000 });
    expect(limiter.consume('a')).toEqual({ allowed: false, limit: 2, remaining: 0, resetMs: 50_000 });
    expect(limiter.consume('b')).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('opens a new window once the old one ends, and forgets a reset key', () => {
    const limiter = createMemoryRateLimiter({ limit: 1, windowSeconds: 60 });
    limiter.consume('a');
    expect(limiter.consume('a')).toMatchObject({ allowed: false });
    vi.advanceTimersByTime(60_000);
    expect(limiter.consume('a')).toEqual({ allowed: true, limit: 1, remaining: 0, resetMs: 60_000 });
    limiter.reset('a');
    expect(limiter.consume('a')).toMatchObject({ allowed: true });
  });

  it('peeks without consuming: refused once the budget is spent', () => {
    const limiter = createMemoryRateLimiter({ limit: 2, windowSeconds: 60 });
    expect(limiter.peek('a')).toEqual({ allowed: true, limit: 2, remaining: 2, resetMs: 0 });
    limiter.consume('a');
    expect(limiter.peek('a')).toMatchObject({ allowed: true, remaining: 1 });
    limiter.consume('a');
    expect(limiter.peek('a')).toMatchObject({ allowed: false, remaining: 0 });
    vi.advanceTimersByTime(60_000);
    expect(limiter.peek('a')).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('keeps each key its own window when others open and expire around it', () => {
    const limiter = createMemoryRateLimiter({ limit: 1, windowSeconds: 60 });
    limiter.consume('early');
    vi.advanceTimersByTime(30_000);
    limiter.consume('late');
    vi.advanceTimersByTime(30_000);
    // 'early' has expired and is dropped; 'late' still has 30 s to go.
    expect(limiter.consume('early')).toMatchObject({ allowed: true });
    expect(limiter.consume('late')).toMatchObject({ allowed: false, resetMs: 30_000 });
  });
});
