/** What `--since` takes, in the words of its refusal. */
export const isoInstantForms =
  'a date (2025-06-01) or a date and time (2025-06-01T14:30, 2025-06-01T14:30:05Z, 2025-06-01T16:30:05.250+02:00); without an offset it is UTC';

const isoInstant = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

function offsetMinutes(zone: string | undefined): number | undefined {
  if (zone === undefined || zone.toUpperCase() === 'Z') return 0;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2));
  if (hours > 23 || minutes > 59) return undefined;
  return (zone.startsWith('-') ? -1 : 1) * (hours * 60 + minutes);
}

/**
 * An ISO 8601 calendar date, or date and time, as the instant stored timestamps are written in
 * (`toISOString`, UTC): the lists compare them as text, so an offset is folded in here. A time
 * without an offset is UTC, as every timestamp the CLI prints is. Undefined for anything else,
 * an impossible day (2025-02-30) included.
 */
export function parseIsoInstant(text: string): string | undefined {
  const match = isoInstant.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour = 0, minute = 0, second = 0] = match.slice(1, 7).map((part) => (part === undefined ? undefined : Number(part)));
  const milliseconds = Number((match[7] ?? '').padEnd(3, '0').slice(0, 3));
  const offset = offsetMinutes(match[8]);
  if (offset === undefined || hour > 23 || minute > 59 || second > 59) return undefined;
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC reads the years 0-99 as 1900-1999.
  date.setUTCFullYear(year!, month! - 1, day!);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month! - 1 || date.getUTCDate() !== day) return undefined;
  date.setUTCHours(hour, minute - offset, second, milliseconds);
  return date.toISOString();
}
