import { z } from 'zod';
import type { poolCreateSchema, poolUpdateSchema } from '@dms/core';
import { router, userProcedure } from '../trpc.js';
import { ref, typed, type Input } from './inputs.js';
import { crudProcedures } from './crud-procedures.js';

/** `update` sets membership too: `nas_share_ids` in the body replaces the pool's shares, as PUT /pools/{id} does. */
export const poolsRouter = router({
  ...crudProcedures({
    service: (core) => core.pools,
    key: 'pool',
    create: typed<Input<typeof poolCreateSchema>>(),
    update: z.custom<Input<typeof poolUpdateSchema>>(),
  }),
  /** Answers the shares the pool released (kept, now in no pool), for the console's notice. */
  delete: userProcedure.input(z.object({ pool: ref })).mutation(({ ctx, input }) => ctx.core.pools.destroy(ctx.principal, input.pool)),
});
