import { z } from 'zod';
import type { nasCreateSchema, nasUpdateSchema } from '@dms/core';
import { router, userProcedure } from '../trpc.js';
import { typed, type Input } from './inputs.js';
import { crudProcedures } from './crud-procedures.js';

export const nasRouter = router({
  ...crudProcedures({
    service: (core) => core.nas,
    key: 'nas',
    create: typed<Input<typeof nasCreateSchema>>(),
    update: z.custom<Input<typeof nasUpdateSchema>>(),
  }),
  /**
   * The absolute folders a local share may lie under, for the share form to name: to an admin
   * only (a path of this machine says more than a user needs), null to anyone else.
   */
  localRoots: userProcedure.query(({ ctx }) => (ctx.principal.kind === 'user' && ctx.principal.admin ? [...(ctx.localRoots ?? [])] : null)),
});
