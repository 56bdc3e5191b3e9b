import { z } from 'zod';
import { maxRecentJobs } from '@dms/core';
import { router, userProcedure } from '../trpc.js';

// One item per page: only `count` (the total before pagination) is wanted.
const countOnly = { limit: ['1'] };

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
  /** The newest jobs (an admin sees all, others their own), with what they ran on. */
  recentJobs: userProcedure
    .input(z.object({ limit: z.number().int().min(1).max(maxRecentJobs).default(10) }).optional())
    .query(({ ctx, input }) => ctx.core.jobs.recent(ctx.principal, input?.limit)),
});
