// The site the scale section measures on (issue 48), and its reduced size for a quick check.
// Pure: no I/O, so a unit test holds the arithmetic.

/** A site's real size: what the issue names. */
export const fullScale = {
  nas: 500,
  shares: 10_000,
  pools: 5,
  jobs: 1_000_000,
  auditEvents: 10_000_000,
  scanDays: 90,
  schedules: 20,
  openAlerts: 50,
};

/** Days the seeded jobs and audit events spread over: within job_retention_days (30) and audit_retention_days (365), so nothing is purged before the bench asks. */
export const jobSpanDays = 29;
export const auditSpanDays = 364;

/**
 * The counts of a size: `full`, or `small` (the big counts divided by 100, at least 1; pools,
 * schedules, alerts and days of scans kept, they are what the site is made of, not its bulk).
 */
export function scaleCounts(size) {
  if (size === 'full') return { ...fullScale };
  if (size !== 'small') throw new Error(`bench scale: --scale-size must be full or small, got '${size}'`);
  const divided = (n) => Math.max(1, Math.round(n / 100));
  return {
    ...fullScale,
    nas: divided(fullScale.nas),
    shares: divided(fullScale.shares),
    jobs: divided(fullScale.jobs),
    auditEvents: divided(fullScale.auditEvents),
    openAlerts: Math.min(fullScale.openAlerts, divided(fullScale.shares)),
  };
}

/** `total` rows of `row(i)` (i from 0) in arrays of `size` rows, the last one shorter: what a seed writes a statement at a time. */
export function* rowBatches(total, row, size) {
  for (let from = 0; from < total; from += size) {
    const batch = [];
    for (let i = from; i < Math.min(total, from + size); i++) batch.push(row(i));
    yield batch;
  }
}

/** The history tables and the days each spans: what the bytes per share-year are measured over. */
export const historyParts = (counts) => [
  { table: 'audit_events', spanDays: auditSpanDays },
  { table: 'jobs', spanDays: jobSpanDays },
  { table: 'share_scans', spanDays: counts.scanDays },
  { table: 'share_scan_analytics', spanDays: counts.scanDays },
  { table: 'share_capacity_samples', spanDays: counts.scanDays },
];

/** Bytes per share and year of history, from the bytes each kind of history takes over the days it spans. */
export function bytesPerShareYear({ shares, parts }) {
  const perYear = parts.reduce((sum, part) => sum + (part.bytes * 365) / part.spanDays, 0);
  return perYear / shares;
}
