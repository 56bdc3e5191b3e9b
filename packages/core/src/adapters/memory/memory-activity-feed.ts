import type { Activity, ActivityFeed } from '../../ports/activity-feed.js';
import { deliver } from './memory-event-bus.js';

/** In-process activity feed: a listener that throws is reported and never breaks the engine, dispatcher or scheduler telling it. */
export class MemoryActivityFeed implements ActivityFeed {
  readonly #listeners = new Set<(activity: Activity) => void>();
  constructor(private readonly onListenerError: (error: unknown) => void = () => {}) {}

  report(activity: Activity): void {
    if (this.#listeners.size > 0) deliver(this.#listeners, activity, this.onListenerError);
  }

  subscribe(listener: (activity: Activity) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
