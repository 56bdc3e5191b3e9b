import { z } from 'zod';
import type { JobTarget } from '@dms/core/runtime';
import { asTrpcError, router, userProcedure } from '../trpc.js';
import { ref, shareScope } from './inputs.js';

/**
 * Where a job was started, as the core checks it (a job read under another NAS or share is
 * not found): under a NAS for a test of an unsaved share, or a saved share's test or scan.
 */
const jobTarget = z
  .union([
    z.object({ jobId: z.string(), nas: ref }),
    z.object({ jobId: z.string(), share: ref, scope: shareScope, kind: z.enum(['share_test', 'share_scan']) }),
  ])
  .transform((target): JobTarget =>
    'nas' in target ? { jobId: target.jobId, nasRef: target.nas } : { jobId: target.jobId, kind: target.kind, scope: target.scope, shareRef: target.share },
  );

export const jobsRouter = router({
  status: userProcedure.input(jobTarget).query(({ ctx, input }) => ctx.core.jobs.status(ctx.principal, input)),
  /**
   * Every change of a job's status or progress, from its current state until it finishes
   * (core.jobs.watch). The first read happens before streaming, so an unknown job or a missing
   * right fails the call itself.
   */
  progress: userProcedure.input(jobTarget).subscription(async ({ ctx, input, signal }) => {
    const statuses = await ctx.core.jobs.watch(ctx.principal, input, signal ? { signal } : {});
    return (async function* () {
      try {
        yield* statuses;
      } catch (error) {
        throw asTrpcError(error);
      }
    })();
  }),
});
