import { z } from 'zod';
import type { silenceCreateSchema, silenceUpdateSchema } from '@dms/core';
import { router } from '../trpc.js';
import { typed, type Input } from './inputs.js';
import { crudProcedures } from './crud-procedures.js';

/** Silences (docs/api.md#silences): read by anyone signed in, changed by admins only, as the core decides. */
export const silencesRouter = router(
  crudProcedures({
    service: (core) => core.silences,
    key: 'silence',
    create: typed<Input<typeof silenceCreateSchema>>(),
    update: z.custom<Input<typeof silenceUpdateSchema>>(),
  }),
);
