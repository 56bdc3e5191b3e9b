import type { EventBus } from '../../ports/event-bus.js';
import type { DmsEvent, InternalEvent } from '../../domain/events.js';

/** In-process bus: a listener that throws is reported and never breaks the publisher. */
export class MemoryEventBus implements EventBus {
  readonly #listeners = new Set<(event: DmsEvent) => void>();
  readonly #signalListeners = new Set<(event: InternalEvent) => void>();
  constructor(private readonly onListenerError: (error: unknown) => void = () => {}) {}

  publish(event: DmsEvent): void {
    deliver(this.#listeners, event, this.onListenerError);
  }

  subscribe(listener: (event: DmsEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  signal(event: InternalEvent): void {
    deliver(this.#signalListeners, event, this.onListenerError);
  }

  subscribeSignals(listener: (event: InternalEvent) => void): () => void {
    this.#signalListeners.add(listener);
    return () => this.#signalListeners.delete(listener);
  }
}

/** Calls every listener; one that throws goes to onError and the rest still run. */
export function deliver<E>(listeners: Iterable<(event: E) => void>, event: E, onError: (error: unknown) => void): void {
  for (const listener of listeners) {
    try {
      listener(event);
    } catch (error) {
      onError(error);
    }
  }
}
