import type { Storage } from '../ports/storage.js';
import type { TrapSender } from '../ports/notifier.js';
import type { DmsEvent } from '../domain/events.js';
import type { NotificationMessage, TrapMessageData } from '../domain/notification-message.js';
import { retryUntil } from './notification-outbox.js';

/** An event as a trap target's queue keeps it: `data.event` is the event itself, its time as text. */
export function trapMessage(event: DmsEvent, id: string): NotificationMessage {
  const { origin: _origin, at, ...rest } = event;
  return {
    id,
    type: 'trap',
    timestamp: at.toISOString(),
    level: event.severity,
    source: event.name,
    title: event.message,
    text: event.message,
    data: { event: { ...rest, at: at.toISOString() } },
  };
}

/** The event a trap target's queued message carries, as the trap sender takes it. */
export function trapEventOf(data: TrapMessageData): DmsEvent {
  return { ...data.event, at: new Date(data.event.at) };
}

export interface TrapQueueOptions {
  storage: Storage;
  clock: () => Date;
  newId: () => string;
  /** Something was queued: the dispatcher's next round now. */
  queued: () => void;
}

/**
 * What the trap fan-out (startTrapDispatcher) hands each event and target to: the event queued
 * on the target's channel (docs/decisions/174-snmp-traps-as-a-channel.md), one id per event on
 * every target, sent by the notification dispatcher with its retries, order and leases.
 */
export function trapQueue({ storage, clock, newId, queued }: TrapQueueOptions): TrapSender {
  const ids = new WeakMap<DmsEvent, string>();
  return {
    async send(target, event) {
      let id = ids.get(event);
      if (id === undefined) {
        id = `evt_${newId()}`;
        ids.set(event, id);
      }
      const channelId = await storage.notificationChannels.trapChannel(target.id);
      const now = clock();
      await storage.notificationDeliveries.enqueue([channelId], trapMessage(event, id), now.toISOString(), retryUntil(now));
      queued();
    },
    close() {},
  };
}
