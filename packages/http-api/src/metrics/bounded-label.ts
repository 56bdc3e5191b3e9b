/** What a label value outside the bound is counted as. */
export const otherLabel = 'other';

/**
 * Keeps a label's values to at most `max` distinct ones (plus `other`), so a source of names
 * that misbehaves cannot grow the series without end; each value is taken as it first comes.
 */
export function boundedLabel(max: number): (value: string) => string {
  const seen = new Set<string>();
  return (value) => {
    if (seen.has(value)) return value;
    if (seen.size >= max) return otherLabel;
    seen.add(value);
    return value;
  };
}
