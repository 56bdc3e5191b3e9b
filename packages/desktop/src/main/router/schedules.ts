import { z } from 'zod';
import { scheduleListQuerySchema, type scheduleCreateSchema, type scheduleUpdateSchema } from '@dms/core';
import { router, userProcedure } from '../trpc.js';
import { historyQuery, typed, type Input } from './inputs.js';
import { crudProcedures } from './crud-procedures.js';

/**
 * Schedules of share tests and scans (/schedules). The bodies are the core's to validate: a rule
 * the RRULE parser refuses comes back as a validation error on `rrule` with the parser's reason.
 */
export const schedulesRouter = router({
  ...crudProcedures({
    service: (core) => core.schedules,
    key: 'schedule',
    create: typed<Input<typeof scheduleCreateSchema>>(),
    update: z.custom<Input<typeof scheduleUpdateSchema>>(),
  }),
  /** The list contract's parameters, each a string as REST takes it; a name the list lacks is refused here. */
  list: userProcedure.input(historyQuery(scheduleListQuerySchema)).query(({ ctx, input }) => ctx.core.schedules.list(ctx.principal, input)),
});
