import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { likePrefixRange } from './like-prefix-range.js';

const byteWise = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
const wellFormed = fc.string({ unit: 'grapheme', maxLength: 6 });

describe('likePrefixRange', () => {
  it('holds exactly the strings that start with the prefix, in byte-wise order', () => {
    fc.assert(
      fc.property(
        wellFormed.filter((prefix) => prefix !== '' && !/[%_\\]/.test(prefix) && !prefix.endsWith('\u{10ffff}')),
        wellFormed,
        (prefix, rest) => {
          const range = likePrefixRange(`${prefix}%`)!;
          const inRange = (value: string) => byteWise(value, range.from) >= 0 && byteWise(value, range.to) < 0;
          // Both a string with the prefix and a random one must agree with startsWith.
          for (const value of [prefix + rest, rest, prefix.slice(0, -1) + rest]) expect(inRange(value)).toBe(value.startsWith(prefix));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('turns a plain prefix pattern into a range', () => {
    expect(likePrefixRange('share-%')).toEqual({ from: 'share-', to: 'share.' });
    expect(likePrefixRange('caf\u00e9%')).toEqual({ from: 'caf\u00e9', to: 'caf\u00ea' });
    expect(likePrefixRange('a\u{d7ff}%')).toEqual({ from: 'a\u{d7ff}', to: 'a\u{e000}' });
    expect(likePrefixRange('x\u{1f600}%')).toEqual({ from: 'x\u{1f600}', to: 'x\u{1f601}' });
  });

  it('leaves every other pattern to LIKE', () => {
    for (const pattern of ['share', '%share', 'sh%re%', 'sh_re%', '%', 'a\\%', 'end\u{10ffff}%', '']) expect(likePrefixRange(pattern)).toBeUndefined();
  });
});
