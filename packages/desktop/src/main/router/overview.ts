import { router, userProcedure } from '../trpc.js';

// One item per page: only `count` (the total before pagination) is wanted.
const countOnly = { limit: ['1'] };

/**
 * The console's first screen. Jobs are counted by status: the core has no list of recent
 * jobs yet (jobs are read by id under their NAS or share), so none is shown.
 */
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
});
