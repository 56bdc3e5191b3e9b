import { z } from 'zod';
import { listDefaults, type Principal, type ShareHealth } from '@dms/core';
import { router, userProcedure } from '../trpc.js';
import { withNames } from './job-names.js';

// One item per page: only `count` (the total before pagination) is wanted.
const countOnly = { limit: ['1'] };

/** The name a principal's jobs carry as their requester (docs/api.md#job-history). */
function requesterName(principal: Principal): string {
  return principal.kind === 'user' ? principal.username : principal.name;
}

/** The console's first screen: counts, the shares' health, jobs by status and the newest jobs, the SNMP agent's state. */
export const overviewRouter = router({
  show: userProcedure.query(async ({ ctx }) => {
    const { core, principal } = ctx;
    const sharesWith = (health: ShareHealth) => core.shares.list(principal, { kind: 'all' }, { ...countOnly, health: [health] });
    const [nas, pools, shares, traps, jobs, ok, unreachable, unknown] = await Promise.all([
      core.nas.list(principal, countOnly),
      core.pools.list(principal, countOnly),
      core.shares.list(principal, { kind: 'all' }, countOnly),
      core.traps.list(principal, countOnly),
      core.jobs.countByStatus(),
      sharesWith('ok'),
      sharesWith('unreachable'),
      sharesWith('unknown'),
    ]);
    return {
      counts: { nas: nas.count, pools: pools.count, nas_shares: shares.count, snmp_traps: traps.count },
      share_health: { ok: ok.count, unreachable: unreachable.count, unknown: unknown.count } satisfies Record<ShareHealth, number>,
      jobs_by_status: jobs,
      snmp_agent: ctx.snmpAgent(),
    };
  }),
  /**
   * The signed-in user's own newest jobs (everyone's are on the Jobs screen), with what they
   * ran on: the share's and NAS's ids and names (a name is null once its share or NAS is deleted).
   */
  recentJobs: userProcedure
    .input(z.object({ limit: z.number().int().min(1).max(listDefaults.maxPageSize).default(10) }).optional())
    .query(async ({ ctx, input }) => {
      // `=` says equality even for a name that starts with an operator's character.
      const query = { requester: [`=${requesterName(ctx.principal)}`], limit: [String(input?.limit ?? 10)] };
      const { jobs } = await ctx.core.jobs.list(ctx.principal, query);
      return withNames(ctx.core, ctx.principal, jobs);
    }),
});
