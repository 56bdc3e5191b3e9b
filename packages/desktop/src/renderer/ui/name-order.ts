// Names as people read them: "alpha", "Beta", "gamma", not every capital first as the core's
// byte-wise `sort_by` gives them. A fixed locale keeps the order the same on every machine.
const collator = new Intl.Collator('en', { sensitivity: 'base' });

/** Case-insensitive order; names equal but for case keep a fixed (byte-wise) order between them. */
export function compareNames(a: string, b: string): number {
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

/**
 * A list the console loads whole (pickers' names), in case-insensitive name order. Not for a
 * paged list: its pages are cut in the core's order, so sorting one page would mislead.
 */
export function byName<T>(items: readonly T[], name: (item: T) => string): T[] {
  return items.toSorted((a, b) => compareNames(name(a), name(b)));
}
