import { likePatternShape } from '../../list-query/like-pattern.js';

/**
 * `prefix%` as the range of strings that start with `prefix`: `[from, to)` in byte-wise order
 * (SQLite's BINARY, PostgreSQL's COLLATE "C"; UTF-8 bytes sort as code points do), where `to`
 * is the prefix with its last code point incremented. A database walks an index range
 * without testing the pattern on every entry. The prefix is read as LIKE reads it (escapes
 * undone: `a\_b%` starts with `a_b`, list-query/like-pattern.ts). Undefined for any other
 * pattern, and for a prefix ending in U+10FFFF.
 */
export function likePrefixRange(pattern: string): { from: string; to: string } | undefined {
  const { prefix } = likePatternShape(pattern);
  if (prefix === undefined) return undefined;
  const codePoints = Array.from(prefix);
  const last = codePoints.pop()!.codePointAt(0)!;
  if (last === 0x10ffff) return undefined;
  // Past the surrogates, which no well-formed string holds.
  const next = last + 1 === 0xd800 ? 0xe000 : last + 1;
  return { from: prefix, to: codePoints.join('') + String.fromCodePoint(next) };
}
