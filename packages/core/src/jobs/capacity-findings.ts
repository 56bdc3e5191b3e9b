import type { JobOutcome } from '../ports/job-store.js';
import type { ShareCapacity } from '../ports/share-driver.js';
import type { NasShareStore } from '../ports/storage.js';
import { capacityDefaults } from '../defaults.js';
import { forecastCapacity } from '../domain/capacity-forecast.js';

const dayMs = 24 * 3600_000;
/** Readings the forecast reads at most (the newest): a test each minute for a week; they are thinned to the fit's bound anyway. */
export const forecastReadingsRead = 10_000;

/** The capacity a finished test or scan read, from its result (job-runner.ts puts it there). */
export function capacityOfOutcome(outcome: JobOutcome): ShareCapacity | undefined {
  const capacity = outcome.result?.['capacity_bytes'];
  const free = outcome.result?.['free_bytes'];
  if (outcome.status !== 'completed' || capacity === undefined || free === undefined) return undefined;
  return { capacity_bytes: capacity, free_bytes: free };
}

/** Fits the share's capacity history again and stores the forecast (null while there is too little). */
export async function refreshForecast(storage: { shares: NasShareStore }, shareId: number, now: Date): Promise<void> {
  const since = new Date(now.getTime() - capacityDefaults.forecastDays * dayMs).toISOString();
  const history = await storage.shares.capacityHistory(shareId, since, forecastReadingsRead);
  const forecast = forecastCapacity(
    history.map((sample) => ({ ...sample, at: Date.parse(sample.at) })),
    now.getTime(),
    capacityDefaults.forecastDays,
  );
  await storage.shares.saveForecast(
    shareId,
    forecast === undefined ? null : { ...forecast, full_at: forecast.full_at === null ? null : new Date(forecast.full_at).toISOString() },
  );
}
