import { z } from 'zod';
import type { corsRuleCreateSchema, corsRuleUpdateSchema, apiKeyCreateSchema, apiKeyUpdateSchema, settingsUpdateSchema, userCreateSchema, userUpdateSchema } from '@dms/core';
import { router, userProcedure } from '../trpc.js';
import { listQuery, ref, typed, type Input } from './inputs.js';
import { explicitOnlyActions, scopeCatalogue } from '@dms/core';

const oneUser = z.object({ user: ref });
const oneKey = z.object({ apiKey: ref });
const oneRule = z.object({ corsRule: ref });

/** Admin-only through every path: the core refuses a non-admin principal, not this router. */
export const usersRouter = router({
  list: userProcedure.input(listQuery).query(({ ctx, input }) => ctx.core.users.list(ctx.principal, input)),
  show: userProcedure.input(oneUser).query(({ ctx, input }) => ctx.core.users.show(ctx.principal, input.user)),
  create: userProcedure.input(typed<Input<typeof userCreateSchema>>()).mutation(({ ctx, input }) => ctx.core.users.create(ctx.principal, input)),
  update: userProcedure
    .input(oneUser.extend({ body: z.custom<Input<typeof userUpdateSchema>>() }))
    .mutation(({ ctx, input }) => ctx.core.users.update(ctx.principal, input.user, input.body)),
  delete: userProcedure.input(oneUser).mutation(({ ctx, input }) => ctx.core.users.destroy(ctx.principal, input.user)),
});

export const apiKeysRouter = router({
  list: userProcedure.input(listQuery).query(({ ctx, input }) => ctx.core.apiKeys.list(ctx.principal, input)),
  show: userProcedure.input(oneKey).query(({ ctx, input }) => ctx.core.apiKeys.show(ctx.principal, input.apiKey)),
  /** The answer holds the key, once; it is never shown again. */
  create: userProcedure.input(typed<Input<typeof apiKeyCreateSchema>>()).mutation(({ ctx, input }) => ctx.core.apiKeys.create(ctx.principal, input)),
  update: userProcedure
    .input(oneKey.extend({ body: z.custom<Input<typeof apiKeyUpdateSchema>>() }))
    .mutation(({ ctx, input }) => ctx.core.apiKeys.update(ctx.principal, input.apiKey, input.body)),
  delete: userProcedure.input(oneKey).mutation(({ ctx, input }) => ctx.core.apiKeys.destroy(ctx.principal, input.apiKey)),
  /** What the console's scope picker offers: each controller with its actions (`*` aside). */
  scopeCatalogue: userProcedure.query(() => ({ controllers: scopeCatalogue, explicitOnlyActions })),
});

export const corsRulesRouter = router({
  list: userProcedure.input(listQuery).query(({ ctx, input }) => ctx.core.corsRules.list(ctx.principal, input)),
  show: userProcedure.input(oneRule).query(({ ctx, input }) => ctx.core.corsRules.show(ctx.principal, input.corsRule)),
  create: userProcedure.input(typed<Input<typeof corsRuleCreateSchema>>()).mutation(({ ctx, input }) => ctx.core.corsRules.create(ctx.principal, input)),
  update: userProcedure
    .input(oneRule.extend({ body: z.custom<Input<typeof corsRuleUpdateSchema>>() }))
    .mutation(({ ctx, input }) => ctx.core.corsRules.update(ctx.principal, input.corsRule, input.body)),
  delete: userProcedure.input(oneRule).mutation(({ ctx, input }) => ctx.core.corsRules.destroy(ctx.principal, input.corsRule)),
});

/** JWT mode, job queue bounds, allowed share-test hosts … */
export const settingsRouter = router({
  show: userProcedure.query(({ ctx }) => ctx.core.settings.show(ctx.principal)),
  update: userProcedure.input(typed<Input<typeof settingsUpdateSchema>>()).mutation(({ ctx, input }) => ctx.core.settings.update(ctx.principal, input)),
});
