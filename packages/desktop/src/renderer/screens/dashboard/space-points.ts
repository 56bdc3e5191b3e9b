import { humanBytes, shortTime } from '../../ui/format.js';
import { fullInText } from '../../ui/capacity-level.js';

/** One capacity reading, as the router gives it. */
export interface SpaceReading {
  at: string;
  capacity_bytes: number;
  free_bytes: number;
}

/** The share's forecast, as the share shows it. */
export interface SpaceForecast {
  growth_bytes_per_day: number;
  full_at: string | null;
}

/**
 * The forecast line: from the latest reading's used bytes, growing as forecast, to the latest
 * size at `full_at`. Undefined when the share is not growing.
 */
export function forecastLine(readings: readonly SpaceReading[], forecast: SpaceForecast | null): Array<{ x: number; y: number }> | undefined {
  const last = readings.at(-1);
  if (!last || !forecast?.full_at || forecast.growth_bytes_per_day <= 0) return undefined;
  return [
    { x: Date.parse(last.at), y: last.capacity_bytes - last.free_bytes },
    { x: Date.parse(forecast.full_at), y: last.capacity_bytes },
  ];
}

/** The sentence under the chart: where the share stands and where it is heading. */
export function spaceSummary(subject: string, readings: readonly SpaceReading[], forecast: SpaceForecast | null, daysUntilFull: number | null): string {
  const last = readings.at(-1);
  if (!last) return `${subject}: no capacity reading in this period.`;
  const used = last.capacity_bytes - last.free_bytes;
  const now = `${subject}: ${humanBytes(used)} used of ${humanBytes(last.capacity_bytes)} (${humanBytes(last.free_bytes)} free) on ${shortTime(last.at)}, from ${readings.length} ${readings.length === 1 ? 'reading' : 'readings'}.`;
  const full = fullInText(daysUntilFull);
  if (forecast && full && forecast.full_at) {
    return `${now} Growing ${humanBytes(forecast.growth_bytes_per_day)} a day: ${full} (${shortTime(forecast.full_at)}).`;
  }
  return `${now} ${forecast ? 'Not growing: no full date.' : 'Too little history for a forecast yet (3 readings over 24 hours).'}`;
}
