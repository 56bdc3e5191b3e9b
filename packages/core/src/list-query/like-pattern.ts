/**
 * The one reading of a `~` / `!~` / `~*` / `!~*` pattern, on both adapters: `%` matches any run of
 * characters, `_` any one character, and a backslash makes the character after it literal (`\%`,
 * `\_`, `\\`). Both adapters compile it to `like … escape '\'` (SQLite has no escape character
 * otherwise, PostgreSQL's default is the backslash), so a pattern means the same on both; a
 * pattern ending in a lone backslash escapes nothing and is refused before it reaches either
 * (docs/decisions/102-like-escape.md).
 */
export const likeEscape = '\\';

export interface LikePatternShape {
  /** Unescaped `%` and `_`. */
  wildcards: number;
  /** The pattern ends in a backslash that escapes nothing. */
  danglingEscape: boolean;
  /** `prefix%` with no other wildcard: the prefix, unescaped (a range of values, not a scan). */
  prefix: string | undefined;
}

export function likePatternShape(pattern: string): LikePatternShape {
  let wildcards = 0;
  let literal = '';
  // Where the first unescaped wildcard is, and whether it is the pattern's last character.
  let firstWildcardAt = -1;
  for (let i = 0; i < pattern.length; i += 1) {
    const char = pattern[i]!;
    if (char === likeEscape) {
      if (i === pattern.length - 1) return { wildcards, danglingEscape: true, prefix: undefined };
      i += 1;
      if (firstWildcardAt < 0) literal += pattern[i]!;
    } else if (char === '%' || char === '_') {
      wildcards += 1;
      if (firstWildcardAt < 0) firstWildcardAt = i;
    } else if (firstWildcardAt < 0) {
      literal += char;
    }
  }
  const prefixOnly = wildcards === 1 && firstWildcardAt === pattern.length - 1 && pattern.endsWith('%') && literal !== '';
  return { wildcards, danglingEscape: false, prefix: prefixOnly ? literal : undefined };
}
