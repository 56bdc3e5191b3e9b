import { z } from 'zod';
import { router, userProcedure } from '../trpc.js';

/** GET /statistics/capacity: the latest scans' totals per NAS and pool, and their growth over `days` (30 unless given). */
export const statisticsRouter = router({
  capacity: userProcedure
    .input(z.object({ days: z.number().int().positive().optional() }).optional())
    .query(({ ctx, input }) => ctx.core.statistics.capacity(ctx.principal, input?.days === undefined ? {} : { days: [String(input.days)] })),
});
