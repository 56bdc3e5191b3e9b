import { describe, expect, it } from 'vitest';
import { backoffMs } from './notification-dispatcher.js';

/** The wait before each retry (docs/decisions/168-notification-deliveries.md): doubling from 5 s, at most an hour, jittered into its upper half. */
describe('backoffMs', () => {
  it('doubles from 5 s up to an hour, drawn between half and the whole', () => {
    expect([1, 2, 3, 4].map((attempts) => backoffMs(attempts, () => 0.999_999))).toEqual([5_000, 10_000, 20_000, 40_000]);
    expect([1, 2, 3, 4].map((attempts) => backoffMs(attempts, () => 0))).toEqual([2_500, 5_000, 10_000, 20_000]);
    expect(backoffMs(12, () => 0.999_999)).toBeCloseTo(3_600_000, -1);
    expect(backoffMs(500, () => 0)).toBe(1_800_000);
  });
});
