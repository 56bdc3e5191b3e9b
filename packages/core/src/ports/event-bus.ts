import type { DmsEvent } from '../events/catalogue.js';

/** Domain events leave the core through this port; the SNMP notifier subscribes to it. */
export interface EventBus {
  publish(event: DmsEvent): void;
  subscribe(listener: (event: DmsEvent) => void): () => void;
}
