import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codePointBefore } from './code-point-order.js';

const utf8Before = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b)) < 0;

describe('codePointBefore', () => {
  it('puts a code point above U+FFFF after U+E000-U+FFFF, as UTF-8 bytes do', () => {
    expect('\u{1F600}' < '\uFFFD').toBe(true);
    expect(codePointBefore('\u{1F600}', '\uFFFD')).toBe(false);
    expect(codePointBefore('\uFFFD', '\u{1F600}')).toBe(true);
  });

  it('agrees with the order of UTF-8 bytes on any well-formed strings', () => {
    const text = fc.string({ unit: 'grapheme', maxLength: 6 });
    fc.assert(fc.property(text, text, (a, b) => codePointBefore(a, b) === utf8Before(a, b)));
  });
});
