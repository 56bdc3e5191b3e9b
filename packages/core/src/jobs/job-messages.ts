import type { ScanResult } from '../ports/share-driver.js';
import type { JobFailure } from './job-engine.js';

const thousands = new Intl.NumberFormat('en-US');
const byteUnits = ['kB', 'MB', 'GB', 'TB', 'PB', 'EB'] as const;

/** "999 bytes", "5.6 MB": decimal units, as `du --si` and file managers show them. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  let value = bytes / 1000;
  let unit = 0;
  // 999.95 would print as "1000.0 kB": move on to the next unit before rounding gets there.
  while (value >= 999.95 && unit < byteUnits.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value.toFixed(1)} ${byteUnits[unit]}`;
}

/** What a completed scan found: "counted 1,234 files, 5.6 MB". */
export function scanSummary(counts: ScanResult): string {
  const files = `${thousands.format(counts.file_count)} ${counts.file_count === 1 ? 'file' : 'files'}`;
  return `counted ${files}, ${formatBytes(counts.file_size_sum)}`;
}

/** A failed job in one log line: "share test of 'x' failed: connection refused by host …". */
export function describeJobFailure(failure: JobFailure): string {
  const what = failure.kind === 'share_test' ? 'share test' : 'scan';
  const of = failure.shareName !== '' ? ` of '${failure.shareName}'` : failure.shareId !== null ? ` of share ${failure.shareId}` : '';
  return `${what}${of} failed: ${failure.message}`;
}
