import { describe, expect, it } from 'vitest';
import { timeTick } from './scan-points.js';

describe('the time axis of the growth and space charts', () => {
  const at = Date.UTC(2026, 10, 25, 16, 31, 5);
  it('writes every tick of an axis in one format, chosen by the span the axis shows', () => {
    expect(timeTick(at, 30 * 86_400_000)).toMatch(/^Nov 2[456]$/);
    expect(timeTick(at, 6 * 3_600_000)).toMatch(/^Nov 2[456], \d{2}:31$/);
    expect(timeTick(at, 90_000)).toMatch(/^\d{2}:31:05$/);
  });
});
