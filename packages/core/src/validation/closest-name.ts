/**
 * Edit distance where swapping two neighbouring letters counts once (optimal string
 * alignment): `nmae` is one slip from `name`, as a typist sees it.
 */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/** Field names are short: longer input is no typo of one, and is not worth the quadratic work. */
const longestComparable = 64;

/**
 * The known name a typed one most likely meant, or undefined when none is close: at most
 * two slips, and at most one per three letters, so `ab` does not "mean" `id`. Case and
 * `-`/`_` are ignored, so `severityLow` and `severity-low` find `severity_low`.
 */
export function closestName(typed: string, known: readonly string[]): string | undefined {
  if (typed.length > longestComparable) return undefined;
  const fold = (name: string) => name.toLowerCase().replace(/[-_]/g, '');
  const folded = fold(typed);
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(folded, fold(name));
    const allowed = Math.min(2, Math.ceil(Math.max(typed.length, name.length) / 3));
    if (distance <= allowed && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}
