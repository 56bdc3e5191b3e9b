/**
 * A text with its ASCII letters `A`-`Z` lowered and every other character kept: what SQLite's
 * `lower()` gives, and PostgreSQL's `lower()` on a `COLLATE "C"` column. The case-insensitive
 * operators and order fold their operands with it, so a pattern or a seek anchor compares with
 * the database's folded column exactly (`Proj` and `proj` alike; `École` and `école` not).
 */
export function lowerAscii(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}
