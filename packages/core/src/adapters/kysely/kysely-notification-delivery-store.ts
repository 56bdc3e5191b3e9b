import { sql, type Kysely } from 'kysely';
import type { DeliveryAttempt, DeliveryRecord, NotificationDeliveryStore } from '../../ports/notification-store.js';
import type { ListQuery } from '../../list-query/list-query.js';
import type { NotificationMessage } from '../../domain/notification-message.js';
import type { Database } from './kysely-schema.js';
import type { DialectQuirks } from './kysely-dialect-quirks.js';
import { notificationDeliveryColumns as columns, type NotificationDeliveryRow } from '../../tables/notification-deliveries.table.js';
import { parseJsonText, toJsonText } from '../../tables/json-text.js';
import { listRows } from './kysely-list-rows.js';

const toRecord = (row: NotificationDeliveryRow): DeliveryRecord => ({
  ...row,
  id: Number(row.id),
  channel_id: Number(row.channel_id),
  attempts: Number(row.attempts),
  status_code: row.status_code === null ? null : Number(row.status_code),
  message: parseJsonText(row.message),
});

/** The order heads are sent in: the longest due first (ISO times compare as strings), then the oldest. */
const dueFirst = (a: DeliveryRecord, b: DeliveryRecord) =>
  a.next_attempt_at === b.next_attempt_at ? a.id - b.id : (a.next_attempt_at ?? '') < (b.next_attempt_at ?? '') ? -1 : 1;

/**
 * The durable queue of notifications (docs/decisions/168-notification-deliveries.md). A row is
 * taken by a conditional update of its lease, which one statement wins on either dialect (on
 * PostgreSQL the second waits for the first's row lock and then sees the lease taken), so
 * replicas share the queue with no lock held while a message is sent.
 */
export class KyselyNotificationDeliveryStore implements NotificationDeliveryStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly quirks: DialectQuirks,
  ) {}

  async enqueue(channelIds: readonly number[], message: NotificationMessage, at: string, giveUpAt: string) {
    if (channelIds.length === 0) return;
    await this.db
      .insertInto('notification_deliveries')
      .values(
        channelIds.map((channel_id) => ({
          channel_id,
          event_id: message.id,
          event_type: message.type,
          message: toJsonText(message),
          outcome: 'pending' as const,
          at: null,
          status_code: null,
          error: null,
          next_attempt_at: at,
          lease_until: null,
          give_up_at: giveUpAt,
          created_at: at,
        })),
      )
      .onConflict((conflict) => conflict.columns(['channel_id', 'event_id']).doNothing())
      .execute();
  }

  async claimDue(now: string, leaseUntil: string, limit: number) {
    // Each channel's head: its oldest unfinished delivery, if due and not leased. A later one
    // waits behind it, so a channel's messages arrive in the order their events happened. The
    // heads are found once per round (one pass over the unfinished rows' partial index), not
    // by asking, row by row, whether an older one is unfinished (quadratic in a long queue).
    const heads = this.db
      .selectFrom((eb) =>
        eb
          .selectFrom('notification_deliveries')
          .select((inner) => ['channel_id', inner.fn.min('id').as('head')])
          .where('next_attempt_at', 'is not', null)
          .groupBy('channel_id')
          .as('h'),
      )
      .innerJoin('notification_deliveries as d', 'd.id', 'h.head')
      .innerJoin('notification_channels as c', 'c.id', 'd.channel_id')
      .select('d.id')
      .where('c.enabled', '=', 1)
      .where('d.next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('d.lease_until', 'is', null), eb('d.lease_until', '<', now)]))
      .orderBy('d.next_attempt_at')
      .orderBy('d.id')
      .limit(limit);
    // All of them leased by one statement (one commit a round, not one a channel); the lease
    // condition is checked again on each row as it is written, so of replicas claiming the same
    // head at once one wins (on PostgreSQL the other waits for its row lock, then sees it taken).
    const rows = await this.db
      .updateTable('notification_deliveries')
      .set({ lease_until: leaseUntil })
      .where('id', 'in', heads)
      .where('next_attempt_at', 'is not', null)
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .returning(columns)
      .execute();
    return rows.map(toRecord).sort(dueFirst);
  }

  async claimFollowing(channelId: number, afterId: number, now: string, leaseUntil: string, count: number) {
    // Only the dispatcher holding the channel's head asks: no other one takes a row behind a
    // head it does not hold, so the rows taken here follow the head with none left between.
    const next = this.db
      .selectFrom('notification_deliveries')
      .select('id')
      .where('channel_id', '=', channelId)
      .where('id', '>', afterId)
      .where('next_attempt_at', 'is not', null)
      .orderBy('id')
      .limit(count);
    const rows = await this.db
      .updateTable('notification_deliveries')
      .set({ lease_until: leaseUntil })
      .where('id', 'in', next)
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .returning(columns)
      .execute();
    return rows.map(toRecord).sort((a, b) => a.id - b.id);
  }

  async release(ids: readonly number[]) {
    if (ids.length === 0) return;
    await this.db
      .updateTable('notification_deliveries')
      .set({ lease_until: null })
      .where('id', 'in', [...ids])
      .where('next_attempt_at', 'is not', null)
      .execute();
  }

  async recordAttempt(id: number, attempt: DeliveryAttempt) {
    await this.db
      .updateTable('notification_deliveries')
      .set((eb) => ({ ...attempt, attempts: eb('attempts', '+', 1), lease_until: null }))
      .where('id', '=', id)
      .execute();
  }

  async dropPending(channelId: number, at: string, reason: string) {
    const result = await this.db
      .updateTable('notification_deliveries')
      .set({ outcome: 'dropped', next_attempt_at: null, lease_until: null, error: reason, at })
      .where('channel_id', '=', channelId)
      .where('next_attempt_at', 'is not', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async list(channelId: number, query: ListQuery) {
    const mine = sql<boolean>`${sql.ref('notification_deliveries.channel_id')} = ${channelId}`;
    const page = await listRows<NotificationDeliveryRow>(this.db, this.quirks, 'notification_deliveries', columns, query, { visible: mine });
    return { count: page.count, items: page.items.map(toRecord) };
  }

  async purgeFinished(before: string, limit: number) {
    const ids = this.db
      .selectFrom('notification_deliveries')
      .select('id')
      .where('next_attempt_at', 'is', null)
      .where('created_at', '<', before)
      .orderBy('id')
      .limit(limit);
    const result = await this.db.deleteFrom('notification_deliveries').where('id', 'in', ids).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
