import { z } from 'zod';
import type { nasCreateSchema, nasUpdateSchema } from '@dms/core';
import { router, userProcedure } from '../trpc.js';
import { listQuery, ref, typed, type Input } from './inputs.js';

export const nasRouter = router({
  list: userProcedure.input(listQuery).query(({ ctx, input }) => ctx.core.nas.list(ctx.principal, input)),
  show: userProcedure.input(z.object({ nas: ref })).query(({ ctx, input }) => ctx.core.nas.show(ctx.principal, input.nas)),
  create: userProcedure.input(typed<Input<typeof nasCreateSchema>>()).mutation(({ ctx, input }) => ctx.core.nas.create(ctx.principal, input)),
  update: userProcedure
    .input(z.object({ nas: ref, body: z.custom<Input<typeof nasUpdateSchema>>() }))
    .mutation(({ ctx, input }) => ctx.core.nas.update(ctx.principal, input.nas, input.body)),
  delete: userProcedure.input(z.object({ nas: ref })).mutation(({ ctx, input }) => ctx.core.nas.destroy(ctx.principal, input.nas)),
});
