import { EventEmitter } from 'node:events';
import type { EventBus } from '../ports/event-bus.js';
import { makeInternalEvent } from '../domain/events.js';

/** The in-process event of one job's change: built here only, so no caller spells it. */
const changedEvent = (jobId: string) => `changed:${jobId}` as const;

/**
 * Wake-ups: an enqueue wakes an idle worker at once, a state change wakes a long-poll at
 * once. A change also goes out as a job_changed signal, so a long-poll on a replica sharing
 * the bus wakes too; storage stays the source of truth (long-polls re-read it and poll), so
 * a lost signal only costs latency.
 */
export class JobSignals {
  readonly #emitter = new EventEmitter().setMaxListeners(0);

  constructor(
    private readonly bus?: Pick<EventBus, 'signal' | 'subscribeSignals'>,
    private readonly clock: () => Date = () => new Date(),
  ) {
    bus?.subscribeSignals((event) => {
      const jobId = event.resource?.id;
      if (event.name === 'job_changed' && event.origin === 'remote' && typeof jobId === 'string') this.#emitter.emit(changedEvent(jobId));
    });
  }

  queued(): void {
    this.#emitter.emit('queued');
  }

  changed(jobId: string): void {
    this.#emitter.emit(changedEvent(jobId));
    this.bus?.signal(makeInternalEvent('job_changed', `job ${jobId} changed`, this.clock(), { type: 'job', id: jobId }));
  }

  /** Resolves on the job's next change, after `ms`, or when one of `aborts` is aborted, whichever comes first. */
  nextChange(jobId: string, ms: number, ...aborts: Array<AbortSignal | undefined>): Promise<void> {
    return this.next(changedEvent(jobId), ms, ...aborts);
  }

  /** Resolves on the next signal, after `ms`, or when one of `aborts` is aborted, whichever comes first. */
  next(event: 'queued' | `changed:${string}`, ms: number, ...aborts: Array<AbortSignal | undefined>): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#emitter.off(event, done);
        for (const abort of aborts) abort?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#emitter.once(event, done);
      for (const abort of aborts) abort?.addEventListener('abort', done, { once: true });
    });
  }
}
