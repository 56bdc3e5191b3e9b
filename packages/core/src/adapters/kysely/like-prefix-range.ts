/**
 * `prefix%` as the range of strings that start with `prefix`: `[from, to)` in byte-wise order
 * (SQLite's BINARY, PostgreSQL's COLLATE "C"; UTF-8 bytes sort as code points do), where `to`
 * is the prefix with its last code point incremented. A database walks an index range
 * without testing the pattern on every entry. Undefined for any other pattern, and for a
 * prefix holding a backslash (PostgreSQL's LIKE escape) or ending in U+10FFFF.
 */
export function likePrefixRange(pattern: string): { from: string; to: string } | undefined {
  if (!pattern.endsWith('%')) return undefined;
  const prefix = pattern.slice(0, -1);
  if (prefix === '' || /[%_\\]/.test(prefix)) return undefined;
  const codePoints = Array.from(prefix);
  const last = codePoints.pop()!.codePointAt(0)!;
  if (last === 0x10ffff) return undefined;
  // Past the surrogates, which no well-formed string holds.
  const next = last + 1 === 0xd800 ? 0xe000 : last + 1;
  return { from: prefix, to: codePoints.join('') + String.fromCodePoint(next) };
}
