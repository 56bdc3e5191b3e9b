import type { Generated, Selectable } from 'kysely';
import type { DeliveryOutcome } from '../domain/notification-channel.js';
import { columnsOf } from './columns.js';
import type { JsonText } from './json-text.js';
import type { MessageType, NotificationMessage } from '../domain/notification-message.js';

/**
 * One event for one channel, queued in the transaction that stored the event: at most one row
 * per (channel, event), sent in id order per channel (docs/decisions/168-notification-deliveries.md).
 */
export interface NotificationDeliveryTable {
  id: Generated<number>;
  channel_id: number;
  event_id: string;
  event_type: MessageType;
  /** The message as every channel renders it (JSON). */
  message: JsonText<NotificationMessage>;
  outcome: DeliveryOutcome;
  attempts: Generated<number>;
  /** The latest attempt; null before the first. */
  at: string | null;
  status_code: number | null;
  error: string | null;
  /** Due from then; null once finished (delivered, failed for good, dropped). */
  next_attempt_at: string | null;
  /** A dispatcher holds it until then (any replica may take it after). */
  lease_until: string | null;
  /** Retried until then (24 hours after it was queued). */
  give_up_at: string;
  created_at: string;
}

export type NotificationDeliveryRow = Selectable<NotificationDeliveryTable>;
export const notificationDeliveryColumns = columnsOf<NotificationDeliveryRow>({
  id: true,
  channel_id: true,
  event_id: true,
  event_type: true,
  message: true,
  outcome: true,
  attempts: true,
  at: true,
  status_code: true,
  error: true,
  next_attempt_at: true,
  lease_until: true,
  give_up_at: true,
  created_at: true,
});
