import { describe, expect, it } from 'vitest';
import { boundHasher } from './bounded-hasher.js';
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
    const bounded = boundHasher(inner.hasher, { concurrency: 2, maxWaiting: 3 });
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
