import { CliError } from './cli-error.js';
import { cliPrincipal } from './cli-principal.js';
import { parseTimeout, waitForJob } from './wait-for-job.js';
import { withDms, type Output } from './with-dms.js';

/**
 * `dms share test|scan REF`: queues the job as the CLI. The CLI opens the data dir as a command,
 * with no job workers: a running `dms serve` on the same data dir takes the job from storage.
 */
export async function shareJob(sub: 'test' | 'scan', ref: string, values: { wait?: boolean; timeout?: string }, out: Output): Promise<number> {
  if (values.timeout !== undefined && !values.wait) throw new CliError('--timeout is how long --wait waits: give --wait too');
  const seconds = parseTimeout(values.timeout);
  return withDms(async (dms) => {
    const { jobs } = dms.core;
    const { job_id: jobId } = sub === 'test' ? await jobs.testSaved(cliPrincipal, { kind: 'all' }, ref) : await jobs.scan(cliPrincipal, { kind: 'all' }, ref);
    out(`queued ${sub === 'test' ? 'share test' : 'scan'} job ${jobId} of share ${ref}`);
    if (!values.wait) {
      out(`a running 'dms serve' on this data dir runs it; 'dms jobs list' shows how it went, --wait follows it`);
      return 0;
    }
    out(`waiting up to ${seconds} s for a running 'dms serve' on this data dir to run it`);
    return waitForJob(dms, jobId, seconds, out);
  });
}
