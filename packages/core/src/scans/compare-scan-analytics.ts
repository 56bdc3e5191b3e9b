import {
  ageBuckets,
  sizeBuckets,
  topGrowerLimit,
  type HistogramRow,
  type ScanAnalytics,
  type ScanComparisonHistograms,
  type TopDirectory,
  type TopGrower,
} from '../domain/scan-analytics.js';

/**
 * What changed between two scans' top directories (decision 156). A directory listed in both is
 * compared as it is; one listed in only one scan counts as empty in the other only when that
 * scan lists every directory to depth 3 (`top_directories_complete`), since otherwise it may
 * merely have ranked below the cut. Unchanged directories are left out. Answers the `limit` that
 * grew most and the `limit` that shrank most, by bytes (then files), sorted by `bytes_delta`.
 */
export function topGrowers(from: ScanAnalytics, to: ScanAnalytics, limit: number = topGrowerLimit): TopGrower[] {
  const before = new Map(from.top_directories.map((entry) => [entry.path, entry]));
  const after = new Map(to.top_directories.map((entry) => [entry.path, entry]));
  const empty = (path: string): TopDirectory => ({ path, bytes: 0, files: 0 });
  const changes: TopGrower[] = [];
  for (const path of new Set([...before.keys(), ...after.keys()])) {
    const old = before.get(path) ?? (from.top_directories_complete ? empty(path) : undefined);
    const now = after.get(path) ?? (to.top_directories_complete ? empty(path) : undefined);
    if (old === undefined || now === undefined) continue;
    const change = { path, bytes_delta: now.bytes - old.bytes, files_delta: now.files - old.files };
    if (change.bytes_delta !== 0 || change.files_delta !== 0) changes.push(change);
  }
  const order = (a: TopGrower, b: TopGrower) =>
    b.bytes_delta - a.bytes_delta || b.files_delta - a.files_delta || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  changes.sort(order);
  const grew = changes.filter((change) => change.bytes_delta > 0 || (change.bytes_delta === 0 && change.files_delta > 0)).slice(0, limit);
  const shrank = changes.filter((change) => !grew.includes(change) && (change.bytes_delta < 0 || (change.bytes_delta === 0 && change.files_delta < 0)));
  return [...grew, ...shrank.slice(Math.max(0, shrank.length - limit))];
}

function sideBySide<B extends string>(buckets: readonly B[], from: readonly HistogramRow<B>[], to: readonly HistogramRow<B>[]) {
  return buckets.map((bucket) => {
    const old = from.find((row) => row.bucket === bucket);
    const now = to.find((row) => row.bucket === bucket);
    return { bucket, from_files: old?.files ?? 0, from_bytes: old?.bytes ?? 0, to_files: now?.files ?? 0, to_bytes: now?.bytes ?? 0 };
  });
}

/** The two scans' age and size histograms, bucket by bucket. */
export function histogramsSideBySide(from: ScanAnalytics, to: ScanAnalytics): ScanComparisonHistograms {
  return {
    age_histogram: sideBySide(ageBuckets, from.age_histogram, to.age_histogram),
    size_histogram: sideBySide(sizeBuckets, from.size_histogram, to.size_histogram),
  };
}
