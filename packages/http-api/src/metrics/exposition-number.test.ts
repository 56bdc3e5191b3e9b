import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { maxNumberBytes, writeNumber } from './exposition-number.js';

const written = (value: number) => {
  const out = Buffer.alloc(maxNumberBytes + 4, 0x2a);
  const end = writeNumber(out, 2, value);
  expect(out[1]).toBe(0x2a);
  expect(out[end]).toBe(0x2a);
  return out.subarray(2, end).toString('latin1');
};

describe('exposition numbers', () => {
  it('writes a value as String(value) does: whole numbers, times with milliseconds, and any other double', () => {
    for (const value of [0, 1, 9, 10, 99, 100, 2 ** 31, 2 ** 40 + 7, Number.MAX_SAFE_INTEGER, 0.5, 0.001, 0.999, 1795914900.25, 1795914900.005, 1e12 - 0.001]) {
      expect(written(value)).toBe(String(value));
    }
    for (const value of [-1, -0.5, 1.5e-7, 1e21, 2 ** 60, 0.1 + 0.2, 1e12 + 0.5, Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE]) {
      expect(written(value)).toBe(String(value));
    }
  });

  it('property: every time in milliseconds / 1000 and every double is written as String writes it, within maxNumberBytes', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), (ms) => {
        expect(written(ms / 1000)).toBe(String(ms / 1000));
      }),
      { numRuns: 20_000 },
    );
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        expect(written(value)).toBe(String(value));
      }),
      { numRuns: 20_000 },
    );
  });
});
