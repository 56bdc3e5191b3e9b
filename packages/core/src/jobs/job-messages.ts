import type { ScanResult } from '../ports/share-driver.js';
import { jobKindWords, type JobKind } from '../domain/job.js';
import { formatBytes } from '../format-bytes.js';
import { formatCount } from '../format-count.js';

/** A failed job, for logs: which job, about what, and the message its requester reads. */
export interface JobFailure {
  jobId: string;
  kind: JobKind;
  nasId: number | null;
  shareId: number | null;
  /** The share's name ('' when unknown: the job was interrupted or its share is gone). */
  shareName: string;
  message: string;
}

/**
 * What a completed scan found: "counted 1,234 files, 5.6 MB", and what it went past:
 * "; skipped 2 directories: 'a' (permission denied), 'b' (permission denied)".
 */
export function scanSummary(counts: ScanResult): string {
  const files = `${formatCount(counts.file_count)} ${counts.file_count === 1 ? 'file' : 'files'}`;
  const summary = `counted ${files}, ${formatBytes(counts.file_size_sum)}`;
  const skipped = counts.skipped;
  if (skipped === undefined || skipped.count === 0) return summary;
  const more = skipped.count - skipped.shown.length;
  const named = skipped.shown.join(', ') + (more > 0 ? ` and ${formatCount(more)} more` : '');
  return `${summary}; skipped ${formatCount(skipped.count)} ${skipped.count === 1 ? 'directory' : 'directories'}: ${named}`;
}

/** A failed job in one log line: "share test of 'x' failed: connection refused by host …". */
export function describeJobFailure(failure: JobFailure): string {
  const what = jobKindWords[failure.kind];
  const of = failure.shareName !== '' ? ` of '${failure.shareName}'` : failure.shareId !== null ? ` of share ${failure.shareId}` : '';
  return `${what}${of} failed: ${failure.message}`;
}
