import type { JobRecord, JobOutcome } from '../ports/job-store.js';
import type { Storage } from '../ports/storage.js';
import type { AllowedHosts, ShareCapacity, ShareDriverRegistry, ShareLocation } from '../ports/share-driver.js';
import type { SecretBox } from '../ports/secret-box.js';
import type { StepOutcome } from '../domain/job.js';
import { DriverError } from '../ports/share-driver.js';
import { openJobPayload, type JobShare } from './job-payload.js';
import { scanSummary } from './job-messages.js';
import { shareLocation } from './share-location.js';
import { recordStepSpan, type Span } from '../tracing/spans.js';
import { ScanAnalyticsBuilder } from '../scans/scan-analytics-builder.js';
import type { ScanAnalytics } from '../domain/scan-analytics.js';

export interface RunContext {
  storage: Storage;
  secrets: SecretBox;
  drivers: ShareDriverRegistry;
  driverTimeoutMs: number;
  /** Where the driver may connect, asked when it connects (the setting as it is then). */
  allowedHosts: AllowedHosts;
  signal: AbortSignal;
  /** The engine's clock: the scan's reference for file ages and its entries per second. */
  clock: () => Date;
  /** The job's span (docs/decisions/181-traces.md): each step becomes a child of it. */
  span?: Span;
  /** Persists progress (throttled by the caller). */
  report(progress: { progress: number; total: number; steps: StepOutcome[]; result?: Record<string, number> }): void;
  /** A scan reached this many more files and directories (told as it goes, so a long scan's rate shows while it runs). */
  onScanEntries?(count: number): void;
}

export interface RunResult {
  outcome: JobOutcome;
  /** For events: what the job was about. */
  subject: { shareId: number | null; name: string };
  /** A completed scan's analytics, stored with it. */
  analytics?: ScanAnalytics;
}

/** Where the job connects and the share's name; a saved share or its NAS gone since the job was queued is a message. */
async function locate(target: JobShare, storage: Storage, secrets: SecretBox): Promise<{ location: ShareLocation; name: string } | string> {
  if (!('shareId' in target)) return { name: target.label, location: shareLocation(target.location, target.location, target.location.password) };
  const share = await storage.shares.get(target.shareId);
  if (!share) return `share ${target.shareId} no longer exists`;
  const nas = await storage.nas.get(share.nas_id);
  if (!nas) return `NAS ${share.nas_id} no longer exists`;
  return { name: share.name, location: shareLocation(nas, share, share.password_enc === null ? null : secrets.open(share.password_enc)) };
}

/** A job's result carries the capacity read with it, flat (`capacity_bytes`, `free_bytes`), as its other numbers. */
function capacityResult(capacity: ShareCapacity | undefined): Record<string, number> {
  return capacity === undefined ? {} : { capacity_bytes: capacity.capacity_bytes, free_bytes: capacity.free_bytes };
}

/** Files and directories reached per second so far, whole; 0 before a millisecond has passed. */
function entriesPerSecond(entries: number, elapsedMs: number): number {
  return elapsedMs > 0 ? Math.round((entries * 1000) / elapsedMs) : 0;
}

/** Steps that ran (ok or failed); skipped ones do not count as progress. */
function stepsRun(steps: readonly StepOutcome[]): number {
  return steps.filter((step) => step.outcome !== 'skipped').length;
}

/** Runs one claimed job to its outcome; driver failures become a failed outcome with a message. */
export async function runJob(job: JobRecord, context: RunContext): Promise<RunResult> {
  const target = openJobPayload(context.secrets, job.payload_enc!);
  const located = await locate(target, context.storage, context.secrets);
  if (typeof located === 'string') {
    const shareId = 'shareId' in target ? target.shareId : null;
    return { outcome: { status: 'failed', message: located, progress: 0, total: job.total, steps: [] }, subject: { shareId, name: '' } };
  }
  const { location, name } = located;
  const subject = { shareId: job.share_id, name };
  const driver = context.drivers.forType(location.type);
  const steps: StepOutcome[] = [];
  // Counted once, when the job was queued (JobService): a test's driver steps, 0 for a scan.
  const total = job.total;
  const run = {
    signal: context.signal,
    allowedHosts: context.allowedHosts,
    timeoutMs: context.driverTimeoutMs,
    onStep: (step: StepOutcome) => {
      // Span times are the tracer's wall clock, not the engine's (which a test may hold still).
      if (context.span) recordStepSpan(context.span, step, Date.now(), { 'dms.job.kind': job.kind });
      steps.push(step);
      context.report({ progress: stepsRun(steps), total, steps: [...steps] });
    },
  };

  if (job.kind === 'share_test') {
    const result = await driver.test(location, run);
    const progress = stepsRun(steps);
    const read = result.ok ? capacityResult(result.capacity) : {};
    return {
      subject,
      outcome: {
        status: result.ok ? 'completed' : 'failed',
        message: result.message,
        progress,
        total: Math.max(total, progress),
        steps,
        ...(Object.keys(read).length > 0 ? { result: read } : {}),
      },
    };
  }

  // Entries told so far, and the directories of the last progress (the result counts files only).
  let entriesTold = 0;
  let directories = 0;
  const tellEntries = (reached: number) => {
    if (reached <= entriesTold) return;
    context.onScanEntries?.(reached - entriesTold);
    entriesTold = reached;
  };
  try {
    const startedMs = context.clock().getTime();
    const analytics = new ScanAnalyticsBuilder(startedMs);
    const { capacity, ...counts } = await driver.scan(location, {
      ...run,
      analytics,
      onProgress: (p) => {
        directories = p.directories;
        tellEntries(p.file_count + p.directories);
        context.report({
          progress: p.file_count,
          total: 0,
          steps: [...steps],
          result: { ...p, entries_per_second: entriesPerSecond(p.file_count + p.directories, context.clock().getTime() - startedMs) },
        });
      },
    });
    tellEntries(counts.file_count + directories);
    return {
      subject,
      analytics: analytics.result(),
      outcome: {
        status: 'completed',
        message: scanSummary(counts),
        progress: counts.file_count,
        total: counts.file_count,
        steps,
        result: { file_count: counts.file_count, file_size_sum: counts.file_size_sum, ...capacityResult(capacity) },
      },
    };
  } catch (error) {
    const message = error instanceof DriverError ? error.message : `scan failed: ${error instanceof Error ? error.message : String(error)}`;
    return { subject, outcome: { status: 'failed', message, progress: 0, total: 0, steps } };
  }
}
