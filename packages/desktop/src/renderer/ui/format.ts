const byteUnits = ['bytes', 'KB', 'MB', 'GB', 'TB', 'PB'];

/** A byte count as people read it: 1,234 bytes, 1.2 MB, 3.4 TB (powers of 1000, as file managers show). */
export function humanBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes.toLocaleString('en')} ${bytes === 1 ? 'byte' : 'bytes'}`;
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < byteUnits.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value >= 100 ? Math.round(value) : value.toFixed(1)} ${byteUnits[unit]}`;
}

/** A count with its noun, singular when there is one. */
export function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count.toLocaleString('en')} ${count === 1 ? noun : nouns}`;
}

/** An ISO time as a short local date and time. */
export function shortTime(iso: string | null | undefined): string {
  if (!iso) return '';
  return new Date(iso).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short' });
}
