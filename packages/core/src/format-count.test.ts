import { describe, expect, it } from 'vitest';
import { formatCount } from './format-count.js';

describe('formatCount', () => {
  it.each([
    [0, '0'],
    [7, '7'],
    [999, '999'],
    [1000, '1,000'],
    [10_000, '10,000'],
    [123_456, '123,456'],
    [1_234_567, '1,234,567'],
    [-1000, '-1,000'],
    [Number.MAX_SAFE_INTEGER, '9,007,199,254,740,991'],
  ])('writes %i as %s', (count, written) => {
    expect(formatCount(count)).toBe(written);
  });

  it('writes every integer as en-US Intl does', () => {
    const intl = new Intl.NumberFormat('en-US');
    for (let digits = 1; digits <= 16; digits++) {
      const count = Math.floor(10 ** (digits - 1) * 1.234567891234567);
      expect(formatCount(count)).toBe(intl.format(count));
      expect(formatCount(-count)).toBe(intl.format(-count));
    }
  });

  it('leaves a number that is not a safe integer as String writes it', () => {
    expect(formatCount(1.5)).toBe('1.5');
    expect(formatCount(Number.NaN)).toBe('NaN');
  });
});
