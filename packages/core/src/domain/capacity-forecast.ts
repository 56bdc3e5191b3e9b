/**
 * When a share will be full, from its capacity history (docs/decisions/127-capacity-forecast.md):
 * a Theil-Sen line of used bytes over time (the median of the slopes between pairs of samples,
 * so a few outliers move it little), fitted over the last `days`. A cleanup (a sudden drop)
 * splits the history: slopes are taken within its parts only, and the level from the part
 * since the last one, so freeing space moves the date out at once without bending the trend.
 * Pure: no clock, no storage.
 */

export interface CapacitySample {
  /** Epoch milliseconds. */
  at: number;
  capacity_bytes: number;
  free_bytes: number;
}

export interface CapacityForecast {
  /** Samples the line was fitted to, and the days they span. */
  samples: number;
  days: number;
  growth_bytes_per_day: number;
  /** Null when the share is not growing. */
  full_at: number | null;
}

export const forecastDefaults = { days: 30, minSamples: 3, minSpanMs: 24 * 3600_000 } as const;

const dayMs = 24 * 3600_000;
/** Pairs grow as the square of the samples: beyond this many, samples are thinned evenly in time. */
export const maxFittedSamples = 240;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** At most `max` samples (oldest first), one per equal slice of time (the last of each), the newest always kept. */
export function thinEvenly<T>(samples: readonly T[], max: number, timeOf: (sample: T) => number): T[] {
  if (samples.length <= max) return [...samples];
  const first = timeOf(samples[0]!);
  const width = (timeOf(samples.at(-1)!) - first) / max;
  const bySlice = new Map<number, T>();
  for (const sample of samples) bySlice.set(Math.min(max - 1, Math.floor((timeOf(sample) - first) / (width || 1))), sample);
  return [...bySlice.values()];
}

function thin(samples: readonly CapacitySample[], max: number): CapacitySample[] {
  return thinEvenly(samples, max, (sample) => sample.at);
}

/**
 * Indexes where a cleanup starts: a fall larger than 1 % of the size and ten times the typical
 * step that lasts (the median of the next three samples stays that far below the three before),
 * so noise, one wild sample and a slow shrink are not cleanups.
 */
function cleanups(used: readonly number[], capacity: number): number[] {
  const steps = used.slice(1).map((value, i) => value - used[i]!);
  if (steps.length === 0) return [];
  const bound = Math.max(capacity * 0.01, median(steps.map(Math.abs)) * 10);
  const found: number[] = [];
  for (let i = 1; i < used.length; i += 1) {
    if (used[i]! - used[i - 1]! >= -bound) continue;
    const before = median(used.slice(Math.max(0, i - 3), i));
    const after = median(used.slice(i, i + 3));
    if (after - before < -bound) found.push(i);
  }
  return found;
}

/**
 * The forecast as of `now`, or undefined when there is too little history: fewer than 3
 * samples within the last `days`, or spanning less than 24 hours.
 */
export function forecastCapacity(history: readonly CapacitySample[], now: number, days: number = forecastDefaults.days): CapacityForecast | undefined {
  const since = now - days * dayMs;
  const window = thin(
    history.filter((sample) => sample.at >= since && sample.at <= now && sample.capacity_bytes > 0).sort((a, b) => a.at - b.at),
    maxFittedSamples,
  );
  if (window.length < forecastDefaults.minSamples) return undefined;
  const span = window.at(-1)!.at - window[0]!.at;
  if (span < forecastDefaults.minSpanMs) return undefined;

  const latest = window.at(-1)!;
  const used = window.map((sample) => sample.capacity_bytes - sample.free_bytes);
  const starts = [0, ...cleanups(used, latest.capacity_bytes), window.length];
  const slopes: number[] = [];
  for (let part = 0; part + 1 < starts.length; part += 1) {
    for (let i = starts[part]!; i < starts[part + 1]!; i += 1) {
      for (let j = i + 1; j < starts[part + 1]!; j += 1) slopes.push((used[j]! - used[i]!) / (window[j]!.at - window[i]!.at));
    }
  }
  if (slopes.length === 0) return undefined;
  const slope = median(slopes);
  // The level from the samples since the last cleanup: the line through their median residual.
  const lastPart = starts.at(-2)!;
  const level = median(window.slice(lastPart).map((sample, i) => used[lastPart + i]! - slope * (sample.at - now)));

  const growth = slope * dayMs;
  let fullAt: number | null = null;
  if (growth > 0) fullAt = now + Math.max(0, (latest.capacity_bytes - level) / slope);
  return { samples: window.length, days: Math.round((span / dayMs) * 10) / 10, growth_bytes_per_day: Math.round(growth), full_at: fullAt };
}

/** Days from `now` until `fullAt`, one decimal; 0 once past. */
export function daysUntil(fullAt: number | null, now: number): number | null {
  if (fullAt === null) return null;
  return Math.max(0, Math.round(((fullAt - now) / dayMs) * 10) / 10);
}

/** Used of `capacity`, in percent with one decimal; null until both are known (or of an empty size). */
export function usedPercent(capacity: number | null, free: number | null): number | null {
  if (capacity === null || free === null || capacity <= 0) return null;
  return Math.round(((capacity - free) / capacity) * 1000) / 10;
}
