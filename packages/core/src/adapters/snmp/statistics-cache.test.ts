import { describe, expect, it } from 'vitest';
import type { AgentStatistics } from '../../ports/snmp-agent.js';
import { StatisticsCache } from './statistics-cache.js';

const stats = (shareCount: number): AgentStatistics => ({
  shareCount,
  jobs: { queued: 0, working: 0, completed: 0, failed: 0 },
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('StatisticsCache', () => {
  it('reads once for all requests within maxAge, then again', async () => {
    let reads = 0;
    const cache = new StatisticsCache({ read: async () => stats(++reads), maxAgeMs: 50 });
    const first = await Promise.all([cache.get(), cache.get(), cache.get()]);
    expect(first.map((s) => s.shareCount)).toEqual([1, 1, 1]);
    expect((await cache.get()).shareCount).toBe(1);
    await sleep(60);
    expect((await cache.get()).shareCount).toBe(2);
  });

  it('answers with the last value when a read is slow or fails, and reports the failure', async () => {
    const errors: unknown[] = [];
    let mode: 'ok' | 'slow' | 'fail' = 'ok';
    const cache = new StatisticsCache({
      read: async () => {
        if (mode === 'fail') throw new Error('storage down');
        if (mode === 'slow') await sleep(200);
        return stats(7);
      },
      maxAgeMs: 10,
      timeoutMs: 20,
      onError: (e) => errors.push(e),
    });
    expect((await cache.get()).shareCount).toBe(7);
    await sleep(15);
    mode = 'slow';
    const started = performance.now();
    expect((await cache.get()).shareCount).toBe(7);
    expect(performance.now() - started).toBeLessThan(150);
    await sleep(250);
    mode = 'fail';
    expect((await cache.get()).shareCount).toBe(7);
    expect(errors).toHaveLength(1);
  });

  it('recovers from a read that throws synchronously', async () => {
    let fail = true;
    const cache = new StatisticsCache({
      read: () => {
        if (fail) throw new Error('sync');
        return Promise.resolve(stats(3));
      },
      maxAgeMs: 10,
    });
    expect((await cache.get()).shareCount).toBe(0);
    fail = false;
    await sleep(15);
    expect((await cache.get()).shareCount).toBe(3);
  });
});
