/**
 * Whether `a` sorts before `b` by code points (the order of their UTF-8 bytes), where `<` on
 * strings compares UTF-16 units and so puts a code point above U+FFFF before U+E000-U+FFFF.
 */
export function codePointBefore(a: string, b: string): boolean {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index += 1) {
    const x = a.charCodeAt(index);
    const y = b.charCodeAt(index);
    if (x === y) continue;
    // Both at or above the surrogates: lift the surrogates above U+E000-U+FFFF.
    if (x >= 0xd800 && y >= 0xd800) return (x >= 0xe000 ? x - 0x800 : x + 0x2000) < (y >= 0xe000 ? y - 0x800 : y + 0x2000);
    return x < y;
  }
  return a.length < b.length;
}
