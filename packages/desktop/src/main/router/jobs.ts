import { z } from 'zod';
import type { ActiveJobStatus, Core, Principal } from '@dms/core';
import { asTrpcError, router, userProcedure } from '../trpc.js';
import { ref, shareScope } from './inputs.js';

/**
 * Where a job was started, as the core checks it (a job read under another NAS or share is
 * not found): under a NAS for a test of an unsaved share, or a saved share's test or scan.
 */
const jobTarget = z.union([
  z.object({ jobId: z.string(), nas: ref }),
  z.object({ jobId: z.string(), share: ref, scope: shareScope, kind: z.enum(['share_test', 'share_scan']) }),
]);
type JobTarget = z.output<typeof jobTarget>;

function readJob(core: Core, principal: Principal, target: JobTarget): Promise<ActiveJobStatus> {
  const query = { jobId: target.jobId, wait: undefined };
  if ('nas' in target) return core.jobs.testStatusUnderNas(principal, target.nas, query);
  return core.jobs.statusForShare(principal, target.kind, target.scope, target.share, query);
}

const isFinished = (job: ActiveJobStatus) => job.status === 'completed' || job.status === 'failed';

/**
 * Longest wait between two reads of a job. The event bus carries only a job's end, not its
 * steps, so the subscription wakes on the engine's in-process change signal and reads the
 * stored job; the interval covers a job run by a worker that signals nothing here.
 */
export const progressPollMs = 250;

export const jobsRouter = router({
  status: userProcedure.input(jobTarget).query(({ ctx, input }) => readJob(ctx.core, ctx.principal, input)),
  /**
   * Every change of a job's status or progress, from its current state until it finishes. The
   * first read happens before streaming, so an unknown job or a missing right fails the call itself.
   */
  progress: userProcedure.input(jobTarget).subscription(async ({ ctx, input, signal }) => {
    const read = () => readJob(ctx.core, ctx.principal, input);
    const first = await read();
    return (async function* () {
      try {
        let job = first;
        let last = '';
        for (;;) {
          const seen = JSON.stringify(job);
          if (seen !== last) yield job;
          last = seen;
          if (isFinished(job) || signal?.aborted) return;
          await ctx.core.engine.signals.next(`changed:${input.jobId}`, progressPollMs, signal);
          job = await read();
        }
      } catch (error) {
        throw asTrpcError(error);
      }
    })();
  }),
});
