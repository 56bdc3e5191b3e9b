import { describe, expect, it } from 'vitest';
import { boundHasher, defaultHasherBounds } from './bounded-hasher.js';
import type { PasswordHasher } from '../ports/password-hasher.js';

/** A hasher above the port whose checks finish when the test says so. */
function controlledHasher() {
  const pending: Array<(ok: boolean) => void> = [];
  let peak = 0;
  let active = 0;
  const hasher: PasswordHasher = {
    hash: async (password) => `h:${password}`,
    verify: () =>
      new Promise<boolean>((resolve) => {
        active += 1;
        peak = Math.max(peak, active);
        pending.push((ok) => {
          active -= 1;
          resolve(ok);
        });
      }),
  };
  return { hasher, pending, peak: () => peak };
}

describe('bounded password hasher (security review 5)', () => {
  it('runs at most `concurrency` checks at once and refuses beyond the waiting bound', async () => {
    const inner = controlledHasher();
    const bounded = boundHasher(inner.hasher, { concurrency: 2, maxWaiting: 3, maxWaitingPerAddress: 3 });
    const checks = Array.from({ length: 5 }, () => bounded.verify('h', 'p'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(inner.pending).toHaveLength(2);
    await expect(bounded.verify('h', 'p')).rejects.toMatchObject({ name: 'DomainError', code: 'unavailable', retryAfter: 1 });
    for (let finished = 0; finished < 5; finished += 1) {
      inner.pending.shift()!(true);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await Promise.all(checks)).toEqual([true, true, true, true, true]);
    expect(inner.peak()).toBe(2);
  });
});

describe('bounded password hasher: fair to real users under a flood (finding 20.13)', () => {
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it('finding 20.13: a flood of guesses from 80 addresses never refuses a first sign-in from another address', async () => {
    const inner = controlledHasher();
    const bounded = boundHasher(inner.hasher, defaultHasherBounds);
    const flood: Array<Promise<unknown>> = [];
    // 400 guesses from 80 addresses: more than may wait in all.
    for (let round = 0; round < 5; round += 1) {
      for (let a = 0; a < 80; a += 1) flood.push(bounded.verify('h', 'guess', { address: `198.51.100.${a}` }).catch((error: unknown) => error));
    }
    await settle();
    const legit = Array.from({ length: 5 }, (_, i) => bounded.verify('h', 'right', { address: `203.0.113.${i}` }));
    // Every check finishes in turn; none of the five users is refused.
    while (inner.pending.length > 0) {
      inner.pending.shift()!(true);
      await settle();
    }
    expect(await Promise.all(legit)).toEqual([true, true, true, true, true]);
    // The flood itself was bounded: most of its checks were refused without running.
    const refused = (await Promise.all(flood)).filter((outcome) => outcome !== true);
    expect(refused.length).toBeGreaterThan(100);
  });

  it('finding 20.13: a credential that verified before goes ahead of every waiting guess', async () => {
    const inner = controlledHasher();
    const bounded = boundHasher(inner.hasher, { concurrency: 1, maxWaiting: 8, maxWaitingPerAddress: 8 });
    const order: string[] = [];
    const track = (label: string, check: Promise<boolean>) => check.then(() => order.push(label));
    const running = track('first guess', bounded.verify('h', 'p', { address: 'a' }));
    const guesses = [1, 2, 3].map((n) => track(`guess ${n}`, bounded.verify('h', 'p', { address: 'a' })));
    const known = track('known', bounded.verify('h', 'p', { address: 'b', known: true }));
    await settle();
    while (inner.pending.length > 0) {
      inner.pending.shift()!(true);
      await settle();
    }
    await Promise.all([running, known, ...guesses]);
    expect(order).toEqual(['first guess', 'known', 'guess 1', 'guess 2', 'guess 3']);
  });

  it('serves waiting addresses in turn, not first come first served', async () => {
    const inner = controlledHasher();
    const bounded = boundHasher(inner.hasher, { concurrency: 1, maxWaiting: 8, maxWaitingPerAddress: 4 });
    const order: string[] = [];
    const checks = [
      ['x', 'x1'],
      ['x', 'x2'],
      ['x', 'x3'],
      ['y', 'y1'],
    ].map(([address, label]) => bounded.verify('h', 'p', { address: address! }).then(() => order.push(label!)));
    await settle();
    while (inner.pending.length > 0) {
      inner.pending.shift()!(true);
      await settle();
    }
    await Promise.all(checks);
    expect(order).toEqual(['x1', 'x2', 'y1', 'x3']);
  });
});
