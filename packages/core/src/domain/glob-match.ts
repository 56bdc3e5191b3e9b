/** Tests a whole string against one compiled glob. */
export type GlobMatcher = (text: string) => boolean;

/**
 * Compiles a glob whose only wildcard is `*` (any run of characters, `/` included; every
 * other character is literal) into a matcher that runs in linear time.
 *
 * Not a regular expression: `^a.*b.*c$` backtracks, and a path of a few thousand slashes
 * against a three-star pattern (`/api/v2/nas*` followed by `/*` twice and `/test`) kept
 * the event loop busy for seconds, before authentication. Between stars there are only literals, so taking each literal at its
 * leftmost place after the previous one is never worse than any later place: whatever
 * a later place could still match, the leftmost leaves at least as much room for.
 *
 * One deliberate difference from the old `.*`: a star also spans line terminators
 * (a path can hold a decoded `%0A`), as the bare `*` pattern always did.
 */
export function compileGlob(pattern: string): GlobMatcher {
  const pieces = pattern.split('*');
  const prefix = pieces[0] ?? '';
  if (pieces.length === 1) return (text) => text === prefix;
  const suffix = pieces[pieces.length - 1] ?? '';
  // Consecutive stars leave empty pieces, which match anywhere.
  const middle = pieces.slice(1, -1).filter((piece) => piece !== '');
  const fixedLength = prefix.length + suffix.length;

  return (text) => {
    if (text.length < fixedLength || !text.startsWith(prefix) || !text.endsWith(suffix)) return false;
    // The middle pieces must fit between the prefix and the suffix, without overlapping them.
    const end = text.length - suffix.length;
    let from = prefix.length;
    for (const piece of middle) {
      const at = text.indexOf(piece, from);
      if (at === -1 || at + piece.length > end) return false;
      from = at + piece.length;
    }
    return true;
  };
}
