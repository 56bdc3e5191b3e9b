import { z } from 'zod';
import { jobListQuerySchema } from '@dms/core';
import type { JobTarget } from '@dms/core/runtime';
import { asTrpcError, router, userProcedure } from '../trpc.js';
import { historyQuery, ref, shareScope } from './inputs.js';
import { withNames } from './job-names.js';

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

/** One job of the history, by its id alone (GET /jobs/{job_id}). */
const oneJob = z.object({ jobId: z.string() });

/** A stream of the core's, with its failures as the TRPCErrors a client reads. */
async function* mapErrors<T>(stream: AsyncGenerator<T, void>): AsyncGenerator<T, void> {
  try {
    yield* stream;
  } catch (error) {
    throw asTrpcError(error);
  }
}

export const jobsRouter = router({
  status: userProcedure.input(jobTarget).query(({ ctx, input }) => ctx.core.jobs.status(ctx.principal, input)),
  /**
   * Every change of a job's status or progress, from its current state until it finishes
   * (core.jobs.watch). The first read happens before streaming, so an unknown job or a missing
   * right fails the call itself.
   */
  progress: userProcedure
    .input(jobTarget)
    .subscription(async ({ ctx, input, signal }) => mapErrors(await ctx.core.jobs.watch(ctx.principal, input, signal ? { signal } : {}))),
  /**
   * The job history (GET /jobs): the list contract's paging, `sort_by` and filters, newest first
   * unless sorted; each job with the names of its share and NAS, as the overview shows them.
   */
  list: userProcedure.input(historyQuery(jobListQuerySchema)).query(async ({ ctx, input }) => {
    const { count, jobs, countIsLowerBound } = await ctx.core.jobs.list(ctx.principal, input);
    return { count, countIsLowerBound, jobs: await withNames(ctx.core, ctx.principal, jobs) };
  }),
  /** One job with its steps and message (GET /jobs/{job_id}), and its share's and NAS's names. */
  get: userProcedure.input(oneJob).query(async ({ ctx, input }) => {
    const [job] = await withNames(ctx.core, ctx.principal, [await ctx.core.jobs.show(ctx.principal, input.jobId)]);
    return job!;
  }),
  /**
   * A job of the history as it changes (status, progress, steps) until it finishes
   * (core.jobs.follow); checked and read once before streaming, as `progress` is.
   */
  follow: userProcedure
    .input(oneJob)
    .subscription(async ({ ctx, input, signal }) => mapErrors(await ctx.core.jobs.follow(ctx.principal, input.jobId, signal ? { signal } : {}))),
});
