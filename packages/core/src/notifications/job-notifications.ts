import type { EventBus } from '../ports/event-bus.js';
import type { Storage } from '../ports/storage.js';
import { enqueueNotification, jobMessage } from './notification-outbox.js';

export interface JobNotificationOptions {
  bus: EventBus;
  storage: Storage;
  clock: () => Date;
  newId: () => string;
  /** Queued: the dispatcher sends them now. */
  queued: () => void;
  onError: (error: unknown) => void;
}

/**
 * Queues a notification for each job outcome this replica announces (the events traps carry),
 * right after the job's end was stored (docs/decisions/168-notification-deliveries.md). Another
 * replica's jobs are queued there.
 */
export function startJobNotifications(options: JobNotificationOptions): () => void {
  const { bus, storage, clock, newId, queued, onError } = options;
  return bus.subscribe((event) => {
    if (event.origin === 'remote') return;
    const message = jobMessage(event, `evt_${newId()}`);
    if (!message) return;
    storage.transaction((stores) => enqueueNotification(stores, message, clock())).then(queued, onError);
  });
}
