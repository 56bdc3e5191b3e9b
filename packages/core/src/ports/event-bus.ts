import type { DmsEvent, InternalEvent } from '../domain/events.js';

/**
 * Domain events leave the core through this port; the SNMP notifier subscribes to it. A bus
 * shared by replicas also delivers what the others publish, marked `origin: 'remote'`.
 */
export interface EventBus {
  /** Delivers to local subscribers at once and, on a shared bus, to the other replicas. */
  publish(event: DmsEvent): void;
  subscribe(listener: (event: DmsEvent) => void): () => void;
  /**
   * Internal events (credentials_changed, job_changed) travel apart from domain events, so
   * that no domain subscriber, trap or recording ever sees them.
   */
  signal(event: InternalEvent): void;
  subscribeSignals(listener: (event: InternalEvent) => void): () => void;
}
