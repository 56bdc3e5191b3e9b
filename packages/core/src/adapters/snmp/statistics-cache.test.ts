import { describe, expect, it } from 'vitest';
import type { AgentStatistics } from '../../ports/snmp-agent.js';
import { StatisticsCache } from './statistics-cache.js';

const stats = (shareCount: number): AgentStatistics => ({
  shareCount,
  jobs: { queued: 0, working: 0, completed: 0, failed: 0 },
});

/** A clock the test moves by hand: the cache's age checks never wait on wall time. */
function manualClock(): { now: () => number; advance(ms: number): void } {
  let at = 0;
  return { now: () => at, advance: (ms) => (at += ms) };
}

/** A read that stays pending until the test releases it. */
function pendingRead(value: AgentStatistics): { promise: Promise<AgentStatistics>; release(): void } {
  let release = () => {};
  const promise = new Promise<AgentStatistics>((resolve) => {
    release = () => resolve(value);
  });
  return { promise, release };
}

describe('StatisticsCache', () => {
  it('reads once for all requests within maxAge, then again', async () => {
    const clock = manualClock();
    let reads = 0;
    const cache = new StatisticsCache({ read: async () => stats(++reads), maxAgeMs: 50, now: clock.now });
    const first = await Promise.all([cache.get(), cache.get(), cache.get()]);
    expect(first.map((s) => s.shareCount)).toEqual([1, 1, 1]);
    clock.advance(49);
    expect((await cache.get()).shareCount).toBe(1);
    clock.advance(1);
    expect((await cache.get()).shareCount).toBe(2);
  });

  it('answers with the last value when a read is slow or fails, and reports the failure', async () => {
    const clock = manualClock();
    const errors: unknown[] = [];
    const slow = pendingRead(stats(8));
    let mode: 'ok' | 'slow' | 'fail' = 'ok';
    const cache = new StatisticsCache({
      read: async () => {
        if (mode === 'fail') throw new Error('storage down');
        if (mode === 'slow') return slow.promise;
        return stats(7);
      },
      maxAgeMs: 10,
      timeoutMs: 20,
      onError: (e) => errors.push(e),
      now: clock.now,
    });
    expect((await cache.get()).shareCount).toBe(7);
    clock.advance(15);
    mode = 'slow';
    // the read never settles on its own, so only the timeout can answer this request
    expect((await cache.get()).shareCount).toBe(7);
    slow.release();
    // a request joins the read still in flight and sees its value once it settles
    expect((await cache.get()).shareCount).toBe(8);
    clock.advance(15);
    mode = 'fail';
    expect((await cache.get()).shareCount).toBe(8);
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toContain('storage down');
  });

  it('recovers from a read that throws synchronously', async () => {
    const clock = manualClock();
    let fail = true;
    const cache = new StatisticsCache({
      read: () => {
        if (fail) throw new Error('sync');
        return Promise.resolve(stats(3));
      },
      maxAgeMs: 10,
      now: clock.now,
    });
    expect((await cache.get()).shareCount).toBe(0);
    fail = false;
    clock.advance(10);
    expect((await cache.get()).shareCount).toBe(3);
  });
});
