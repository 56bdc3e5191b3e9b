import { z } from 'zod';
import type { snmpConfigUpdateSchema, trapCreateSchema, trapUpdateSchema } from '@dms/core';
import { router, userProcedure } from '../trpc.js';
import { listQuery, ref, typed, type Input } from './inputs.js';

const oneTrap = z.object({ trap: ref });

export const trapsRouter = router({
  list: userProcedure.input(listQuery).query(({ ctx, input }) => ctx.core.traps.list(ctx.principal, input)),
  show: userProcedure.input(oneTrap).query(({ ctx, input }) => ctx.core.traps.show(ctx.principal, input.trap)),
  create: userProcedure.input(typed<Input<typeof trapCreateSchema>>()).mutation(({ ctx, input }) => ctx.core.traps.create(ctx.principal, input)),
  update: userProcedure
    .input(oneTrap.extend({ body: z.custom<Input<typeof trapUpdateSchema>>() }))
    .mutation(({ ctx, input }) => ctx.core.traps.update(ctx.principal, input.trap, input.body)),
  delete: userProcedure.input(oneTrap).mutation(({ ctx, input }) => ctx.core.traps.destroy(ctx.principal, input.trap)),
  /** Sends a test trap to the trap's manager now. */
  test: userProcedure.input(oneTrap).mutation(({ ctx, input }) => ctx.core.traps.test(ctx.principal, input.trap)),
});

/** The SNMP agent's server configuration; an update reconfigures the running agent. */
export const snmpConfigRouter = router({
  show: userProcedure.query(({ ctx }) => ctx.core.snmpConfig.show(ctx.principal)),
  update: userProcedure.input(typed<Input<typeof snmpConfigUpdateSchema>>()).mutation(({ ctx, input }) => ctx.core.snmpConfig.update(ctx.principal, input)),
  agent: userProcedure.query(({ ctx }) => ctx.snmpAgent()),
});
