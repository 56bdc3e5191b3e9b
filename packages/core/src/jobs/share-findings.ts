import type { JobKind } from '../domain/job.js';
import type { ScanAnalytics } from '../domain/scan-analytics.js';
import type { JobOutcome } from '../ports/job-store.js';
import type { Storage, Stores } from '../ports/storage.js';
import { capacityOfOutcome, refreshForecast } from './capacity-findings.js';
import { untilStored, type UntilStoredOptions } from './until-stored.js';

export interface FinishedShareJob {
  kind: JobKind;
  shareId: number;
  outcome: JobOutcome;
  analytics: ScanAnalytics | undefined;
  /** When the job ended (ISO), the time of its reading. */
  at: string;
  durationMs: number;
  /** The engine's clock now: the forecast's reference. */
  now: Date;
}

/** A test's health, or a completed scan's counts and history row, with the capacity it read. */
async function writeReading(stores: Pick<Stores, 'shares'>, job: FinishedShareJob): Promise<void> {
  const capacity = capacityOfOutcome(job.outcome);
  const { at, outcome } = job;
  if (job.kind === 'share_test') {
    await stores.shares.recordTest(job.shareId, { status: outcome.status, at, ...(capacity ? { capacity } : {}) });
    return;
  }
  if (outcome.status !== 'completed' || !outcome.result) return;
  await stores.shares.recordScan(
    job.shareId,
    {
      at,
      file_count: outcome.result['file_count'] ?? 0,
      file_size_sum: outcome.result['file_size_sum'] ?? 0,
      duration_ms: job.durationMs,
      capacity_bytes: capacity?.capacity_bytes ?? null,
      free_bytes: capacity?.free_bytes ?? null,
    },
    job.analytics,
  );
}

/**
 * Stores what a finished job found out about its saved share (docs/decisions/090-health-scans-capacity.md)
 * and, when it read the capacity, the forecast that reading changes, in one transaction: on
 * SQLite each commit is a flush of the log on the event loop, and an hourly test of every share
 * makes thousands (docs/decisions/190-fewer-commits-per-test.md).
 * The reading is kept even when the forecast cannot be stored: a refused transaction is followed
 * by the reading alone, then the forecast alone, whose failure leaves the last one. Tried again
 * while storage is unavailable; the reading is given up on a second refusal of another kind.
 * Failures go to `onError`; nothing here throws.
 */
export async function storeShareFindings(storage: Storage, job: FinishedShareJob, retry: UntilStoredOptions, onError: (error: unknown) => void): Promise<void> {
  const forecastDue = capacityOfOutcome(job.outcome) !== undefined;
  let forecastStored = false;
  await untilStored(async (refusals) => {
    if (refusals === 0 && forecastDue) {
      await storage.transaction(async (stores) => {
        await writeReading(stores, job);
        await refreshForecast(stores, job.shareId, job.now);
      });
      forecastStored = true;
    } else if (refusals === 0 || (refusals === 1 && forecastDue)) {
      await writeReading(storage, job);
    }
  }, retry).catch(() => {});
  if (forecastDue && !forecastStored) await refreshForecast(storage, job.shareId, job.now).catch(onError);
}
