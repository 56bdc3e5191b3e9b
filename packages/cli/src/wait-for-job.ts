import { formatBytes, isJobFinished, type Job } from '@dms/core';
import type { Dms } from '@dms/core/runtime';
import { CliError } from './cli-error.js';
import { cliPrincipal } from './cli-principal.js';
import type { Output } from './with-dms.js';

/** How long `--wait` waits by default: the CLI runs no job itself, so without a server nothing would ever end it. */
export const defaultWaitSeconds = 60;
export const maxWaitSeconds = 86_400;

/** `--timeout SECONDS`: a whole number of seconds from 1 to a day. */
export function parseTimeout(text: string | undefined): number {
  if (text === undefined) return defaultWaitSeconds;
  if (!/^\d{1,6}$/.test(text) || Number(text) < 1 || Number(text) > maxWaitSeconds) {
    throw new CliError(`--timeout '${text}' must be a whole number of seconds from 1 to ${maxWaitSeconds}`);
  }
  return Number(text);
}

/** `job 7f…: working 2/4`, with a scan's counts so far. */
function progressLine(job: Job, withCounts = true): string {
  const steps = job.total > 0 ? ` ${job.progress}/${job.total}` : '';
  const files = job.file_count ?? 0;
  const counted =
    withCounts && job.kind === 'share_scan' && job.file_count !== undefined
      ? `, ${files} ${files === 1 ? 'file' : 'files'}, ${formatBytes(job.file_size_sum ?? 0)}`
      : '';
  return `job ${job.job_id}: ${job.status}${steps}${counted}`;
}

/** How it ended: its message (a scan's says what it counted), then a test's steps. */
function printOutcome(job: Job, out: Output): void {
  out(job.message ? `${progressLine(job, false)}: ${job.message}` : progressLine(job));
  for (const step of job.steps) out(`  ${step.outcome}\t${step.name} (${step.duration_ms} ms)${step.message ? `: ${step.message}` : ''}`);
}

function stillRunning(job: Job, seconds: number): string {
  const wait = `--timeout SECONDS waits longer, 'dms jobs list' shows it`;
  if (job.status === 'queued') {
    return `job ${job.job_id} is still queued after ${seconds} s: no 'dms serve' on this data dir has taken it; it stays queued and a server started later runs it (${wait})`;
  }
  return `job ${job.job_id} is still ${job.status} after ${seconds} s; the server goes on with it (${wait})`;
}

/**
 * Follows a job a running server runs, a line at each change, until it finishes or `seconds`
 * pass (CliError saying so). Resolves the exit code: 0 completed, 1 failed.
 */
export async function waitForJob(dms: Dms, jobId: string, seconds: number, out: Output): Promise<number> {
  const signal = AbortSignal.timeout(seconds * 1000);
  let last: Job | undefined;
  let printed: string | undefined;
  for await (const job of await dms.core.jobs.follow(cliPrincipal, jobId, { signal })) {
    last = job;
    if (isJobFinished(job)) break;
    const line = progressLine(job);
    if (line !== printed) out(line);
    printed = line;
  }
  if (!last || !isJobFinished(last)) throw new CliError(stillRunning(last ?? (await dms.core.jobs.show(cliPrincipal, jobId)), seconds));
  printOutcome(last, out);
  return last.status === 'completed' ? 0 : 1;
}
