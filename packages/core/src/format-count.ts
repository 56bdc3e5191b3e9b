/*
 * Counts in messages: "1,234,567", as `Intl.NumberFormat('en-US')` writes an integer, without
 * Intl. A NumberFormat made at start maps about 5 MB of ICU's locale data into the service's
 * resident memory for a comma every three digits (docs/decisions/188-…). Pure, like format-bytes.
 */

/** An integer with a comma between groups of three digits ("-1,000", "12"); any other number as `String` writes it. */
export function formatCount(count: number): string {
  if (!Number.isSafeInteger(count)) return String(count);
  const digits = String(Math.abs(count));
  const head = digits.length % 3 || 3;
  const groups = [digits.slice(0, head)];
  for (let at = head; at < digits.length; at += 3) groups.push(digits.slice(at, at + 3));
  return `${count < 0 ? '-' : ''}${groups.join(',')}`;
}
