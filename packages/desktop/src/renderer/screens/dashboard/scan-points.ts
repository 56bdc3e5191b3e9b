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
 * A time on a chart's time axis (proportional to time: a linear scale of milliseconds). Every
 * tick of one axis takes the same format, chosen by the span the axis shows: "Nov 25" over two
 * days or more, "Nov 25, 16:31" under that, "16:31:05" under ten minutes (with tenths under ten seconds).
 */
export function timeTick(ms: number, spanMs: number): string {
  const at = new Date(ms);
  if (spanMs >= 2 * 86_400_000) return at.toLocaleDateString('en', { month: 'short', day: 'numeric' });
  if (spanMs >= 10 * 60_000) return at.toLocaleString('en', { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const tenths = spanMs < 10_000 ? ({ fractionalSecondDigits: 1 } as const) : {};
  return at.toLocaleTimeString('en', { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23', ...tenths });
}
