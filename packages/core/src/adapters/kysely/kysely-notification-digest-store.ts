import type { Kysely } from 'kysely';
import type { NotificationDigestStore } from '../../ports/notification-store.js';
import type { NotificationMessage } from '../../domain/notification-message.js';
import type { Database } from './kysely-schema.js';
import { parseJsonText, toJsonText } from '../../tables/json-text.js';

/**
 * What waits for the digests (docs/decisions/173-notification-digests.md). A period is claimed
 * by a conditional update of the channel's `digested_until`, which one statement wins on either
 * dialect, so its digest is made once however many replicas reach its end together.
 */
export class KyselyNotificationDigestStore implements NotificationDigestStore {
  constructor(private readonly db: Kysely<Database>) {}

  async collect(channelIds: readonly number[], message: NotificationMessage, at: string) {
    if (channelIds.length === 0) return;
    const text = toJsonText(message);
    await this.db
      .insertInto('notification_digest_items')
      .values(channelIds.map((channel_id) => ({ channel_id, message: text, created_at: at })))
      .execute();
  }

  async waiting() {
    const rows = await this.db
      .selectFrom('notification_digest_items')
      .select((eb) => ['channel_id', eb.fn.min('created_at').as('oldest')])
      .groupBy('channel_id')
      .execute();
    return rows.map((row) => ({ channel_id: Number(row.channel_id), oldest: String(row.oldest) }));
  }

  async claimPeriod(channelId: number, until: string) {
    const result = await this.db
      .updateTable('notification_channels')
      .set({ digested_until: until })
      .where('id', '=', channelId)
      .where((eb) => eb.or([eb('digested_until', 'is', null), eb('digested_until', '<', until)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async take(channelId: number, until: string) {
    const rows = await this.db
      .deleteFrom('notification_digest_items')
      .where('channel_id', '=', channelId)
      .where('created_at', '<', until)
      .returning(['id', 'message', 'created_at'])
      .execute();
    return rows.sort((a, b) => Number(a.id) - Number(b.id)).map((row) => ({ message: parseJsonText(row.message), created_at: row.created_at }));
  }

  async drop(channelId: number) {
    const result = await this.db.deleteFrom('notification_digest_items').where('channel_id', '=', channelId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
