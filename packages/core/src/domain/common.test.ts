import { describe, expect, it } from 'vitest';
import { looksLikeId, resourceName } from './common.js';
import { hasNul } from '../validation/strings-with-nul.js';

describe('looksLikeId (security round 2, finding 16)', () => {
  it.each(['17', '17\u200b', '\ufeff17', '\uff11\uff17', '1\u20607', '\u200e42', '\u0661\u0667', '\u{1d7cf}\u{1d7d5}', '\u00b9'])(
    '%j reads as an id',
    (name) => {
      expect(looksLikeId(name)).toBe(true);
      expect(resourceName(255).safeParse(name).success).toBe(false);
    },
  );

  it.each(['rack-17', '17a', 'x\u200b17', '\u2167', '', '\u200b'])('%j does not', (name) => {
    expect(looksLikeId(name)).toBe(false);
  });
});

describe('hasNul', () => {
  it('finds U+0000 only', () => {
    expect(hasNul('a\u0000b')).toBe(true);
    expect(hasNul('a\u0001b\u2400')).toBe(false);
  });
});
