import { z } from 'zod';
import type {
  corsRuleCreateSchema,
  corsRuleUpdateSchema,
  apiKeyCreateSchema,
  apiKeyUpdateSchema,
  settingsUpdateSchema,
  userCreateSchema,
  userUpdateSchema,
} from '@dms/core';
import { explicitOnlyActions, scopeCatalogue } from '@dms/core';
import { router, userProcedure } from '../trpc.js';
import { typed, type Input } from './inputs.js';
import { crudProcedures } from './crud-procedures.js';
import { singletonProcedures } from './singleton-procedures.js';

// Admin-only through every path: the core refuses a non-admin principal, not these routers.

export const usersRouter = router(
  crudProcedures({
    service: (core) => core.users,
    key: 'user',
    create: typed<Input<typeof userCreateSchema>>(),
    update: z.custom<Input<typeof userUpdateSchema>>(),
  }),
);

/** The roles a user or key may take (docs/api.md#roles): the console's role menus read them. */
export const rolesRouter = router({
  list: userProcedure.query(({ ctx }) => ctx.core.roles.list(ctx.principal)),
});

/** `create` answers with the key, once; it is never shown again. */
export const apiKeysRouter = router({
  ...crudProcedures({
    service: (core) => core.apiKeys,
    key: 'apiKey',
    create: typed<Input<typeof apiKeyCreateSchema>>(),
    update: z.custom<Input<typeof apiKeyUpdateSchema>>(),
  }),
  /** What the console's scope picker offers: each controller with its actions (`*` aside). */
  scopeCatalogue: userProcedure.query(() => ({ controllers: scopeCatalogue, explicitOnlyActions })),
});

export const corsRulesRouter = router(
  crudProcedures({
    service: (core) => core.corsRules,
    key: 'corsRule',
    create: typed<Input<typeof corsRuleCreateSchema>>(),
    update: z.custom<Input<typeof corsRuleUpdateSchema>>(),
  }),
);

/** JWT mode, job queue bounds, allowed share-test hosts … */
export const settingsRouter = router(singletonProcedures((core) => core.settings, typed<Input<typeof settingsUpdateSchema>>()));
