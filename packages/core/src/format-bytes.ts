/*
 * The one byte formatter: scan messages of the core and the desktop console's tables show the
 * same text. Pure (no Node built-ins), so the renderer bundles it from `@dms/core`.
 */

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
