import { auditEventListQuerySchema } from '@dms/core';
import { router, userProcedure } from '../trpc.js';
import { historyQuery } from './inputs.js';

/** The audit log (GET /audit_events): admin-only, as the core decides; newest first unless sorted. */
export const auditEventsRouter = router({
  list: userProcedure.input(historyQuery(auditEventListQuerySchema)).query(({ ctx, input }) => ctx.core.auditEvents.list(ctx.principal, input)),
});
