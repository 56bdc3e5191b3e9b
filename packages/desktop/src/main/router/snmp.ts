import { z } from 'zod';
import type { snmpConfigUpdateSchema, trapCreateSchema, trapUpdateSchema } from '@dms/core';
import { router, userProcedure } from '../trpc.js';
import { ref, typed, type Input } from './inputs.js';
import { crudProcedures } from './crud-procedures.js';
import { singletonProcedures } from './singleton-procedures.js';
import { eventCatalogue } from '../event-catalogue.js';

export const trapsRouter = router({
  ...crudProcedures({
    service: (core) => core.traps,
    key: 'trap',
    create: typed<Input<typeof trapCreateSchema>>(),
    update: z.custom<Input<typeof trapUpdateSchema>>(),
  }),
  /** Sends a test trap to the trap's manager now. */
  test: userProcedure.input(z.object({ trap: ref })).mutation(({ ctx, input }) => ctx.core.traps.test(ctx.principal, input.trap)),
  /** Every event dms raises with its level and description: what a band lets through (the core's eventCatalogue). */
  eventCatalogue: userProcedure.query(() => eventCatalogue()),
});

/** The SNMP agent's server configuration; an update reconfigures the running agent. */
export const snmpConfigRouter = router({
  ...singletonProcedures((core) => core.snmpConfig, typed<Input<typeof snmpConfigUpdateSchema>>()),
  agent: userProcedure.query(({ ctx }) => ctx.snmpAgent()),
});
