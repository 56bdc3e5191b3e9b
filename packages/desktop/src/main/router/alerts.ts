import { z } from 'zod';
import { alertListQuerySchema, type alertSettingUpdateSchema } from '@dms/core';
import { router, userProcedure } from '../trpc.js';
import { historyQuery, ref, type Input } from './inputs.js';

const oneAlert = z.object({ alert: ref });

/** Open (not cleared) and not dismissed: what still wants someone's attention. */
const unseenQuery = { cleared_at: ['null'], dismissed_at: ['null'], limit: ['1'] };

/** Alerts are conditions: raised, updated while they last, cleared by the core; an operator only dismisses them. */
export const alertsRouter = router({
  /** GET /alerts: newest first unless sorted; `cleared_at: 'null'` lists the open ones. */
  list: userProcedure.input(historyQuery(alertListQuerySchema)).query(({ ctx, input }) => ctx.core.alerts.list(ctx.principal, input)),
  show: userProcedure.input(oneAlert).query(({ ctx, input }) => ctx.core.alerts.show(ctx.principal, input.alert)),
  /** PUT /alerts/{id} {"dismissed": …}: seen (or not) by an operator; it still clears by itself. */
  dismiss: userProcedure
    .input(oneAlert.extend({ dismissed: z.boolean() }))
    .mutation(({ ctx, input }) => ctx.core.alerts.update(ctx.principal, input.alert, { dismissed: input.dismissed })),
  /** How many alerts are open and not dismissed: the header's badge. */
  unseenCount: userProcedure.query(async ({ ctx }) => (await ctx.core.alerts.list(ctx.principal, unseenQuery)).count),
});

/** Per alert source: whether it raises alerts, and at which level (TrueNAS's Alert Settings); changed by admins only, as the core decides. */
export const alertSettingsRouter = router({
  list: userProcedure.query(({ ctx }) => ctx.core.alerts.settings(ctx.principal)),
  update: userProcedure
    .input(z.object({ source: z.string().min(1), body: z.custom<Input<typeof alertSettingUpdateSchema>>() }))
    .mutation(({ ctx, input }) => ctx.core.alerts.updateSetting(ctx.principal, input.source, input.body)),
});
