import { z } from 'zod';
import { isAllowed, type Principal } from '@dms/core';
import { maxRecentJobs, type Core, type RecentJob } from '@dms/core/runtime';
import { router, userProcedure } from '../trpc.js';

// One item per page: only `count` (the total before pagination) is wanted.
const countOnly = { limit: ['1'] };

/** A recent job with the names of what it ran on; null when that is gone (or was never saved). */
export type RecentJobWithNames = RecentJob & { share_name: string | null; nas_name: string | null };

/** `id=><1|2|3` with a page as long as the list: one indexed read per kind, at most maxRecentJobs ids. */
function byIds(ids: ReadonlySet<number>) {
  return { id: [`><${[...ids].join('|')}`], limit: [String(ids.size)] };
}

/**
 * Names for the ids the jobs carry, read through the same list calls as the screens (so the
 * principal's rights apply): one query for the shares and one for the NAS, not one per job.
 */
async function withNames(core: Core, principal: Principal, jobs: RecentJob[]): Promise<RecentJobWithNames[]> {
  const shareIds = new Set(jobs.flatMap((job) => (job.share_id === null ? [] : [job.share_id])));
  const nasIds = new Set(jobs.flatMap((job) => (job.nas_id === null ? [] : [job.nas_id])));
  const [shares, nas] = await Promise.all([
    shareIds.size > 0 && isAllowed(principal, 'nas_shares', 'index') ? core.shares.list(principal, { kind: 'all' }, byIds(shareIds)) : undefined,
    nasIds.size > 0 && isAllowed(principal, 'nas', 'index') ? core.nas.list(principal, byIds(nasIds)) : undefined,
  ]);
  const shareNames = new Map(shares?.nas_shares.map((share) => [share.id, share.name]));
  const nasNames = new Map(nas?.nas.map((item) => [item.id, item.name]));
  return jobs.map((job) => ({
    ...job,
    share_name: job.share_id === null ? null : (shareNames.get(job.share_id) ?? null),
    nas_name: job.nas_id === null ? null : (nasNames.get(job.nas_id) ?? null),
  }));
}

/** The console's first screen: counts, jobs by status and the newest jobs, the SNMP agent's state. */
export const overviewRouter = router({
  show: userProcedure.query(async ({ ctx }) => {
    const { core, principal } = ctx;
    const [nas, pools, shares, traps, jobs] = await Promise.all([
      core.nas.list(principal, countOnly),
      core.pools.list(principal, countOnly),
      core.shares.list(principal, { kind: 'all' }, countOnly),
      core.traps.list(principal, countOnly),
      core.jobs.countByStatus(),
    ]);
    return {
      counts: { nas: nas.count, pools: pools.count, nas_shares: shares.count, snmp_traps: traps.count },
      jobs_by_status: jobs,
      snmp_agent: ctx.snmpAgent(),
    };
  }),
  /**
   * The newest jobs (an admin sees all, others their own), with what they ran on: the share's
   * and NAS's ids and names (a name is null once its share or NAS is deleted).
   */
  recentJobs: userProcedure
    .input(z.object({ limit: z.number().int().min(1).max(maxRecentJobs).default(10) }).optional())
    .query(async ({ ctx, input }) => withNames(ctx.core, ctx.principal, await ctx.core.jobs.recent(ctx.principal, input?.limit))),
});
