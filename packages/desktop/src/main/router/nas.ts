import { z } from 'zod';
import type { nasCreateSchema, nasUpdateSchema } from '@dms/core';
import { router } from '../trpc.js';
import { typed, type Input } from './inputs.js';
import { crudProcedures } from './crud-procedures.js';

export const nasRouter = router(
  crudProcedures({
    service: (core) => core.nas,
    key: 'nas',
    create: typed<Input<typeof nasCreateSchema>>(),
    update: z.custom<Input<typeof nasUpdateSchema>>(),
  }),
);
