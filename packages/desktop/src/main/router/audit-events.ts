import { auditEventListQuerySchema } from '@dms/core';
import { router, userProcedure } from '../trpc.js';
import { historyQuery } from './inputs.js';
import { auditedResourceTypes, withJobs } from './audit-jobs.js';

/** The audit log (GET /audit_events): admin-only, as the core decides; newest first unless sorted. */
export const auditEventsRouter = router({
  /** A page of events; a share's test or scan with the job it started, to show how that went. */
  list: userProcedure.input(historyQuery(auditEventListQuerySchema)).query(async ({ ctx, input }) => {
    const { count, audit_events, countIsLowerBound } = await ctx.core.auditEvents.list(ctx.principal, input);
    return { count, countIsLowerBound, audit_events: await withJobs(ctx.core, ctx.principal, audit_events) };
  }),
  /** The resource types that have events, for the Resource filter. */
  resourceTypes: userProcedure.query(({ ctx }) => auditedResourceTypes(ctx.core, ctx.principal)),
});
