import type { JobRecord, JobOutcome } from '../ports/job-store.js';
import type { Storage } from '../ports/storage.js';
import type { AllowedHosts, ShareDriverRegistry, ShareLocation } from '../ports/share-driver.js';
import type { SecretBox } from '../ports/secret-box.js';
import type { StepOutcome } from '../domain/job.js';
import { parseShareOptions } from '../domain/nas-share.js';
import { DriverError } from '../ports/share-driver.js';
import { toLocation, type JobPayload } from './job-payload.js';
import { scanSummary } from './job-messages.js';

export interface RunContext {
  storage: Storage;
  secrets: SecretBox;
  drivers: ShareDriverRegistry;
  driverTimeoutMs: number;
  /** Where the driver may connect, asked when it connects (the setting as it is then). */
  allowedHosts: AllowedHosts;
  signal: AbortSignal;
  /** Persists progress (throttled by the caller). */
  report(progress: { progress: number; total: number; steps: StepOutcome[]; result?: Record<string, number> }): void;
}

export interface RunResult {
  outcome: JobOutcome;
  /** For events: what the job was about. */
  subject: { shareId: number | null; name: string };
}

async function savedShareLocation(storage: Storage, secrets: SecretBox, shareId: number): Promise<{ location: ShareLocation; name: string } | string> {
  const share = await storage.shares.get(shareId);
  if (!share) return `share ${shareId} no longer exists`;
  const nas = await storage.nas.get(share.nas_id);
  if (!nas) return `NAS ${share.nas_id} no longer exists`;
  return {
    name: share.name,
    location: {
      type: nas.type,
      host: nas.host,
      path: share.path,
      options: parseShareOptions(share.options),
      username: share.username,
      password: share.password_enc === null ? null : secrets.open(share.password_enc),
    },
  };
}

/** Steps that ran (ok or failed); skipped ones do not count as progress. */
function stepsRun(steps: readonly StepOutcome[]): number {
  return steps.filter((step) => step.outcome !== 'skipped').length;
}

/** Runs one claimed job to its outcome; driver failures become a failed outcome with a message. */
export async function runJob(job: JobRecord, context: RunContext): Promise<RunResult> {
  const payload = JSON.parse(context.secrets.open(job.payload_enc!)) as JobPayload;
  let location: ShareLocation;
  let name: string;
  if (payload.kind === 'share_test') {
    location = toLocation(payload.location, parseShareOptions);
    name = payload.label;
  } else {
    const saved = await savedShareLocation(context.storage, context.secrets, payload.shareId);
    if (typeof saved === 'string') {
      return { outcome: { status: 'failed', message: saved, progress: 0, total: job.total, steps: [] }, subject: { shareId: payload.shareId, name: '' } };
    }
    location = saved.location;
    name = saved.name;
  }
  const subject = { shareId: job.share_id, name };
  const driver = context.drivers.forType(location.type);
  const steps: StepOutcome[] = [];
  const total = job.kind === 'share_test' ? driver.testSteps(location).length : 0;
  const run = {
    signal: context.signal,
    allowedHosts: context.allowedHosts,
    timeoutMs: context.driverTimeoutMs,
    onStep: (step: StepOutcome) => {
      steps.push(step);
      context.report({ progress: stepsRun(steps), total, steps: [...steps] });
    },
  };

  if (job.kind === 'share_test') {
    const result = await driver.test(location, run);
    const progress = stepsRun(steps);
    return {
      subject,
      outcome: { status: result.ok ? 'completed' : 'failed', message: result.message, progress, total: Math.max(total, progress), steps },
    };
  }

  try {
    const counts = await driver.scan(location, {
      ...run,
      onProgress: (p) => context.report({ progress: p.file_count, total: 0, steps: [...steps], result: { ...p } }),
    });
    if (job.share_id !== null) await context.storage.shares.update(job.share_id, counts);
    return {
      subject,
      outcome: { status: 'completed', message: scanSummary(counts), progress: counts.file_count, total: counts.file_count, steps, result: { ...counts } },
    };
  } catch (error) {
    const message = error instanceof DriverError ? error.message : `scan failed: ${error instanceof Error ? error.message : String(error)}`;
    return { subject, outcome: { status: 'failed', message, progress: 0, total: 0, steps } };
  }
}
