import type { Stores } from '../ports/storage.js';
import type { NotificationChannelRecord } from '../ports/notification-store.js';
import type { AlertRecord } from '../ports/alert-store.js';
import type { DmsEvent } from '../domain/events.js';
import type { Severity } from '../domain/trap.js';
import { levelNames, type NotificationMessage } from '../domain/notification-message.js';

/** How long a delivery is retried before it is given up (docs/decisions/168-notification-deliveries.md). */
export const deliveryRetryWindowMs = 24 * 60 * 60 * 1000;

/** The alert source a failing channel raises; its own messages are not sent on the channel it is about. */
export const channelFailingSource = 'notification_channel_failing';

/**
 * Whether a channel takes a message: enabled, at or above its level, of a source it names (all
 * when none). A scheduled run's outcome is routine: only a channel naming its source takes it;
 * the others hear of it through the alerts it raises and clears (docs/decisions/172-alert-damping.md).
 */
export function channelReceives(
  channel: Pick<NotificationChannelRecord, 'id' | 'type' | 'enabled' | 'min_level' | 'sources'>,
  message: NotificationMessage,
): boolean {
  if (!channel.enabled || message.level < channel.min_level) return false;
  // An Alertmanager takes alerts, not events: a job's outcome has no condition to fire and resolve.
  if (channel.type === 'alertmanager' && !('alert' in message.data)) return false;
  if (channel.sources !== null && !channel.sources.includes(message.source)) return false;
  if (channel.sources === null && 'job' in message.data && message.data.job.schedule_id !== null) return false;
  // "this channel fails" is told on the other channels: sent on itself it would queue behind its own failures.
  if (message.source === channelFailingSource && 'alert' in message.data && message.data.alert.resource?.id === String(channel.id)) return false;
  return true;
}

/**
 * Queues a message for every channel that takes it, with the stores of the transaction that
 * stored its event: the event and its deliveries commit together or not at all.
 */
export async function enqueueNotification(
  stores: Pick<Stores, 'notificationChannels' | 'notificationDeliveries' | 'notificationDigests'>,
  message: NotificationMessage,
  now: Date,
): Promise<void> {
  const channels = (await stores.notificationChannels.listRoutes()).filter((channel) => channelReceives(channel, message));
  // An hourly or daily channel keeps it for its next digest (docs/decisions/173-notification-digests.md).
  const digests = channels.filter((channel) => channel.digest !== 'immediately').map((channel) => channel.id);
  const immediate = channels.filter((channel) => channel.digest === 'immediately').map((channel) => channel.id);
  if (digests.length > 0) await stores.notificationDigests.collect(digests, message, now.toISOString());
  if (immediate.length > 0) await stores.notificationDeliveries.enqueue(immediate, message, now.toISOString(), retryUntil(now));
}

/** When a delivery queued at `now` is given up. */
export const retryUntil = (now: Date): string => new Date(now.getTime() + deliveryRetryWindowMs).toISOString();

/** An alert's raise, change of level, or clear, as a message. */
export function alertMessage(
  type: 'alert.raised' | 'alert.updated' | 'alert.cleared',
  alert: AlertRecord,
  eventId: string,
  at: Date,
  previousLevel?: Severity | null,
): NotificationMessage {
  const resource = alert.resource_type === null ? null : { type: alert.resource_type, id: alert.resource_id, name: alert.resource_name };
  const about = resource ? ` (${resource.type} ${resource.name ?? resource.id ?? ''})`.replace(/ \)$/, ')') : '';
  const verb = type === 'alert.raised' ? 'raised' : type === 'alert.cleared' ? 'cleared' : `now ${levelNames[alert.level]}`;
  return {
    id: eventId,
    type,
    timestamp: at.toISOString(),
    level: alert.level,
    source: alert.source,
    title: `[dms] ${levelNames[alert.level]}: ${alert.source} ${verb}${about}`,
    text: alert.message,
    data: {
      alert: {
        id: alert.id,
        source: alert.source,
        level: alert.level,
        resource,
        message: alert.message,
        raised_at: alert.raised_at,
        cleared_at: alert.cleared_at,
        ...(previousLevel ? { previous_level: previousLevel } : {}),
      },
    },
  };
}

const jobKinds = {
  share_test_completed: { kind: 'share_test', status: 'completed' },
  share_test_failed: { kind: 'share_test', status: 'failed' },
  share_scan_completed: { kind: 'share_scan', status: 'completed' },
  share_scan_failed: { kind: 'share_scan', status: 'failed' },
} as const;

/** A job outcome event (one a trap carries) as a message; undefined for any other event. */
export function jobMessage(event: DmsEvent, eventId: string): NotificationMessage | undefined {
  if (!(event.name in jobKinds)) return undefined;
  const { kind, status } = jobKinds[event.name as keyof typeof jobKinds];
  const resource = event.resource
    ? { type: event.resource.type, id: event.resource.id === undefined ? null : String(event.resource.id), name: event.resource.name ?? null }
    : null;
  return {
    id: eventId,
    type: status === 'completed' ? 'job.completed' : 'job.failed',
    timestamp: event.at.toISOString(),
    level: event.severity,
    source: event.name,
    title: `[dms] ${levelNames[event.severity]}: ${event.message}`,
    text: event.message,
    data: { job: { kind, status, message: event.message, schedule_id: event.job?.schedule_id ?? null }, resource },
  };
}

/** What `POST /notification_channels/{id}/test` sends. */
export function testMessage(channel: Pick<NotificationChannelRecord, 'name'>, eventId: string, at: Date): NotificationMessage {
  const level: Severity = 1;
  return {
    id: eventId,
    type: 'test',
    timestamp: at.toISOString(),
    level,
    source: 'test',
    title: `[dms] test message for channel ${channel.name}`,
    text: `This is a test message from dms for the notification channel "${channel.name}".`,
    data: { test: true },
  };
}
