import { EventEmitter } from 'node:events';

/**
 * In-process wake-ups: an enqueue wakes an idle worker at once, a state change wakes a
 * long-poll at once. Other replicas are reached by polling storage, so nothing depends on it.
 */
export class JobSignals {
  readonly #emitter = new EventEmitter().setMaxListeners(0);

  queued(): void {
    this.#emitter.emit('queued');
  }

  changed(jobId: string): void {
    this.#emitter.emit(`changed:${jobId}`);
  }

  /** Resolves on the next signal or after `ms`, whichever comes first. */
  next(event: 'queued' | `changed:${string}`, ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#emitter.off(event, done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#emitter.once(event, done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }
}
