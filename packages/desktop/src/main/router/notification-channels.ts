import { z } from 'zod';
import type { channelCreateSchema, channelUpdateSchema, Delivery } from '@dms/core';
import { router, userProcedure } from '../trpc.js';
import { listQuery, ref, typed, type Input } from './inputs.js';
import { crudProcedures } from './crud-procedures.js';

const oneChannel = z.object({ channel: ref });

// By name, not instanceof, as trpc.ts reads the core's errors (docs/decisions/074-console-ipc-and-router.md).
const isNotFound = (error: unknown) => error instanceof Error && error.name === 'DomainError' && (error as { code?: unknown }).code === 'not_found';

/**
 * Where dms tells people what happened (docs/api.md#notification-channels). Admin-only through
 * every path: the core refuses a non-admin principal, and checks each call's scope as REST does
 * (docs/decisions/166-notification-channels.md).
 */
export const notificationChannelsRouter = router({
  /** `create` answers a webhook's signing secret (`secret`), once; it is never shown again. */
  ...crudProcedures({
    service: (core) => core.notificationChannels,
    key: 'channel',
    create: typed<Input<typeof channelCreateSchema>>(),
    update: z.custom<Input<typeof channelUpdateSchema>>(),
  }),
  /** POST /notification_channels/{id}/test: a test message sent now; answers `{outcome, status_code, error}`. */
  test: userProcedure.input(oneChannel).mutation(({ ctx, input }) => ctx.core.notificationChannels.test(ctx.principal, input.channel)),
  /** GET /notification_channels/{id}/deliveries: one row per event, newest first unless sorted. */
  deliveries: userProcedure
    .input(oneChannel.extend({ query: listQuery }))
    .query(({ ctx, input }) => ctx.core.notificationChannels.deliveries(ctx.principal, input.channel, input.query)),
  /**
   * For the channels' table: each listed channel's newest delivery (null before its first, or
   * once the channel is gone: a deletion races the table's reload), read through the same
   * deliveries list; at most a page of channels (100) at once.
   */
  latestDeliveries: userProcedure.input(z.object({ ids: z.array(z.number().int()).max(100) })).query(({ ctx, input }) =>
    Promise.all(
      input.ids.map(async (id): Promise<{ channel_id: number; delivery: Delivery | null }> => {
        const page = await ctx.core.notificationChannels.deliveries(ctx.principal, String(id), { per_page: ['1'] }).catch((error: unknown) => {
          if (isNotFound(error)) return null;
          throw error;
        });
        return { channel_id: id, delivery: page?.deliveries[0] ?? null };
      }),
    ),
  ),
});
