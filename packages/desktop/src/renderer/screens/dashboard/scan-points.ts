import type { Outputs } from '../../trpc-client.js';
import { humanBytes, plural, preciseTime } from '../../ui/format.js';

export type Scan = Outputs['shares']['scans']['scans'][number];

/** "Scan 2 of 3, Nov 25, 2026, 4:31:02 PM: 18 bytes in 3 files": one scan, in words. */
export function scanText(scans: readonly Scan[], index: number): string {
  const scan = scans[index];
  if (!scan) return '';
  return `Scan ${index + 1} of ${scans.length}, ${preciseTime(scan.at)}: ${humanBytes(scan.file_size_sum)} in ${plural(scan.file_count, 'file')}`;
}

function change(value: number, text: (magnitude: number) => string): string {
  if (value === 0) return 'no change';
  return `${value > 0 ? 'grew by' : 'shrank by'} ${text(Math.abs(value))}`;
}

/** What the chart shows, in a sentence: where the share started, where it is, and the change between. */
export function growthSummary(subject: string, scans: readonly Scan[]): string {
  const first = scans[0];
  const last = scans.at(-1);
  if (!first || !last) return `${subject} has no scans yet.`;
  if (scans.length === 1)
    return `${subject} was scanned once, ${preciseTime(first.at)}: ${humanBytes(first.file_size_sum)} in ${plural(first.file_count, 'file')}.`;
  const size = change(last.file_size_sum - first.file_size_sum, humanBytes);
  const files = change(last.file_count - first.file_count, (count) => plural(count, 'file'));
  return (
    `Over ${scans.length} scans, from ${preciseTime(first.at)} to ${preciseTime(last.at)}, ${subject} went from ${humanBytes(first.file_size_sum)} ` +
    `in ${plural(first.file_count, 'file')} to ${humanBytes(last.file_size_sum)} in ${plural(last.file_count, 'file')}: its size ${size}, its file count ${files}.`
  );
}

/**
 * The x axis's label of each scan: its date and time to the minute, or to the second where two
 * scans fall in one minute (they would read the same).
 */
export function scanLabels(scans: readonly Scan[]): string[] {
  const minute = (iso: string) => new Date(iso).toLocaleString('en', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
  const second = (iso: string) => new Date(iso).toLocaleString('en', { hour: 'numeric', minute: '2-digit', second: '2-digit' });
  const labels = scans.map((scan) => minute(scan.at));
  const repeated = new Set(labels.filter((label, index) => labels.indexOf(label) !== index));
  return scans.map((scan, index) => (repeated.has(labels[index]!) ? `${labels[index]!.split(',')[0]}, ${second(scan.at)}` : labels[index]!));
}
