import { z } from 'zod';
import type { poolCreateSchema, poolUpdateSchema } from '@dms/core';
import { router, userProcedure } from '../trpc.js';
import { listQuery, ref, typed, type Input } from './inputs.js';

export const poolsRouter = router({
  list: userProcedure.input(listQuery).query(({ ctx, input }) => ctx.core.pools.list(ctx.principal, input)),
  show: userProcedure.input(z.object({ pool: ref })).query(({ ctx, input }) => ctx.core.pools.show(ctx.principal, input.pool)),
  create: userProcedure.input(typed<Input<typeof poolCreateSchema>>()).mutation(({ ctx, input }) => ctx.core.pools.create(ctx.principal, input)),
  /** Membership too: `nas_share_ids` in the body replaces the pool's shares, as PUT /pools/{id} does. */
  update: userProcedure
    .input(z.object({ pool: ref, body: z.custom<Input<typeof poolUpdateSchema>>() }))
    .mutation(({ ctx, input }) => ctx.core.pools.update(ctx.principal, input.pool, input.body)),
  delete: userProcedure.input(z.object({ pool: ref })).mutation(({ ctx, input }) => ctx.core.pools.destroy(ctx.principal, input.pool)),
});
