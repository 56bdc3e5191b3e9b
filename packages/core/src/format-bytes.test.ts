import { describe, expect, it } from 'vitest';
import { formatBytes } from './format-bytes.js';

describe('formatBytes', () => {
  it.each([
    [0, '0 bytes'],
    [1, '1 byte'],
    [999, '999 bytes'],
    [1000, '1.0 kB'],
    [5_600_000, '5.6 MB'],
    [999_960, '1.0 MB'],
    [5_000_000_000, '5.0 GB'],
  ])('formats %i bytes as %s', (bytes, shown) => {
    expect(formatBytes(bytes)).toBe(shown);
  });
});
