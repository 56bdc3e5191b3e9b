import type { Generated, Selectable } from 'kysely';
import { columnsOf } from './columns.js';
import type { JsonText } from './json-text.js';
import type { NotificationMessage } from '../domain/notification-message.js';

/**
 * An event waiting for its channel's next digest (an `hourly` or `daily` channel), queued in the
 * transaction that stored the event and taken, all at once, by the digest that lists it
 * (docs/decisions/173-notification-digests.md).
 */
export interface NotificationDigestItemTable {
  id: Generated<number>;
  channel_id: number;
  /** The message it would have been alone (JSON). */
  message: JsonText<NotificationMessage>;
  created_at: string;
}

export type NotificationDigestItemRow = Selectable<NotificationDigestItemTable>;
export const notificationDigestItemColumns = columnsOf<NotificationDigestItemRow>({
  id: true,
  channel_id: true,
  message: true,
  created_at: true,
});
