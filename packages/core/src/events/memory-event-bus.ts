import type { EventBus } from '../ports/event-bus.js';
import type { DmsEvent } from './catalogue.js';

/** In-process bus: a listener that throws is reported and never breaks the publisher. */
export class MemoryEventBus implements EventBus {
  readonly #listeners = new Set<(event: DmsEvent) => void>();
  constructor(private readonly onListenerError: (error: unknown) => void = () => {}) {}

  publish(event: DmsEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }

  subscribe(listener: (event: DmsEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
