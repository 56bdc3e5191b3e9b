import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { recurrenceWorkerSource } from './recurrence-worker-source.js';

/** A rule refused: its text is not RFC 5545 as dms takes it, or evaluating it took too long. */
export class RecurrenceError extends Error {
  override readonly name = 'RecurrenceError';
}

/** How long one evaluation may take before the worker is ended and the rule refused. */
export const recurrenceDeadlineMs = 1_000;

interface Answer {
  id: number;
  ok: boolean;
  next?: string | null;
  count?: number;
  reason?: string;
}

/** How long the worker may take to load rrule and luxon before a request gives up. */
const workerStartMs = 30_000;

interface StartedWorker {
  worker: Worker;
  ready: Promise<void>;
}

type Request = { op: 'next'; text: string; after: string } | { op: 'count'; text: string; after: string; through: string; cap: number };

const require = createRequire(import.meta.url);

/**
 * RRULE evaluation off the event loop (recurrence-worker-source.ts says why), one worker for
 * the process, started on first use. Each request has a deadline: past it, the worker is ended
 * (a rule that matches nothing iterates for tens of seconds), the request refused and the next
 * one starts a new worker.
 */
export class Recurrences {
  #worker: StartedWorker | undefined;
  #nextId = 1;
  readonly #pending = new Map<number, { resolve: (answer: Answer) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }>();

  constructor(private readonly deadlineMs = recurrenceDeadlineMs) {}

  /** The first occurrence strictly after `after`, or null when the rule has ended; throws RecurrenceError for a bad rule. */
  async next(text: string, after: Date): Promise<Date | null> {
    const answer = await this.ask({ op: 'next', text, after: after.toISOString() });
    return answer.next ? new Date(answer.next) : null;
  }

  /** Occurrences in (after, through], at most `cap`, and the first one after them. */
  async count(text: string, after: Date, through: Date, cap: number): Promise<{ count: number; next: Date | null }> {
    const answer = await this.ask({ op: 'count', text, after: after.toISOString(), through: through.toISOString(), cap });
    return { count: answer.count ?? 0, next: answer.next ? new Date(answer.next) : null };
  }

  close(): Promise<void> {
    const started = this.#worker;
    this.#worker = undefined;
    this.#fail(new RecurrenceError('the service is stopping'));
    return started ? started.worker.terminate().then(() => undefined) : Promise.resolve();
  }

  private async ask(request: Request): Promise<Answer> {
    const { worker, ready } = this.#started();
    // The deadline is for the rule, not for starting the thread: loading rrule and luxon took
    // over a second on a loaded machine and refused a fresh service's first rule.
    await ready;
    const id = this.#nextId++;
    const answer = await new Promise<Answer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(
          new RecurrenceError(`evaluating the rule took longer than ${this.deadlineMs} ms: it may match no date at all (such as BYMONTHDAY=30;BYMONTH=2)`),
        );
        // Still iterating: end it, and with it whatever else it was asked (those ask again).
        if (this.#worker?.worker === worker) this.#worker = undefined;
        void worker.terminate();
        this.#fail(new RecurrenceError('evaluation was interrupted by another rule that took too long; try again'));
      }, this.deadlineMs);
      this.#pending.set(id, { resolve, reject, timer });
      worker.postMessage({ id, ...request });
    });
    if (!answer.ok) throw new RecurrenceError(answer.reason ?? 'invalid rule');
    return answer;
  }

  #started(): StartedWorker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(recurrenceWorkerSource, {
      eval: true,
      workerData: { rrulePath: require.resolve('rrule'), luxonPath: require.resolve('luxon') },
    });
    worker.unref();
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        if (this.#worker?.worker === worker) this.#worker = undefined;
        void worker.terminate();
        reject(new RecurrenceError(`the rule checker did not start within ${workerStartMs} ms; try again`));
      }, workerStartMs);
      worker.once('message', () => {
        clearTimeout(timer);
        resolve();
      });
      worker.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      worker.once('exit', () => {
        clearTimeout(timer);
        reject(new RecurrenceError('the rule checker stopped; try again'));
      });
    });
    // A waiter may be gone (close()) before the worker starts: nobody must see an unhandled rejection.
    ready.catch(() => undefined);
    worker.on('message', (answer: Answer) => {
      const waiting = this.#pending.get(answer.id);
      if (!waiting) return;
      this.#pending.delete(answer.id);
      clearTimeout(waiting.timer);
      waiting.resolve(answer);
    });
    worker.on('error', (error) => {
      if (this.#worker?.worker === worker) this.#worker = undefined;
      this.#fail(error);
    });
    this.#worker = { worker, ready };
    return this.#worker;
  }

  #fail(error: Error): void {
    for (const [id, waiting] of this.#pending) {
      clearTimeout(waiting.timer);
      waiting.reject(error);
      this.#pending.delete(id);
    }
  }
}
