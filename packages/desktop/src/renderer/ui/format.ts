// One byte formatter for the core's scan messages and the console (decimal units, one decimal).
export { formatBytes as humanBytes } from '@dms/core';

/** A count with its noun, singular when there is one. */
export function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count.toLocaleString('en')} ${count === 1 ? noun : nouns}`;
}

/** An ISO time as a short local date and time. */
export function shortTime(iso: string | null | undefined): string {
  if (!iso) return '';
  return new Date(iso).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short' });
}

/** An ISO time to the second, as a log's entries need it: events of one minute keep their order. */
export function preciseTime(iso: string | null | undefined): string {
  if (!iso) return '';
  return new Date(iso).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'medium' });
}
