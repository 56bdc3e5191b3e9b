import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { recurrenceWorkerSource } from './recurrence-worker-source.js';

/** A rule refused: its text is not RFC 5545 as dms takes it, or evaluating it took too long. */
export class RecurrenceError extends Error {
  override readonly name = 'RecurrenceError';

  constructor(
    message: string,
    /** Refused for the time it took, not for its text. */
    readonly timedOut = false,
  ) {
    super(message);
  }
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

type Request =
  | { op: 'next'; text: string; after: string }
  | { op: 'check'; text: string; after: string; minIntervalMs: number }
  | { op: 'count'; text: string; after: string; through: string; cap: number };

interface Waiting {
  request: Request;
  resolve: (answer: Answer) => void;
  reject: (error: Error) => void;
}

const require = createRequire(import.meta.url);

/**
 * RRULE evaluation off the event loop (recurrence-worker-source.ts says why), in a worker of
 * its own, started on first use. One request is in the worker at a time, the others wait here,
 * and the deadline counts from when it is handed over: past it the worker is ended (a rule that
 * matches nothing iterates for tens of seconds) and that request alone refused; the next one
 * starts a new worker (docs/decisions/108-rule-checks-cost-their-caller-only.md). The service
 * keeps one instance for the scheduler and one for rules submitted through the API, so a
 * caller's slow rule never holds up a scheduled run.
 */
export class Recurrences {
  #worker: StartedWorker | undefined;
  #nextId = 1;
  readonly #queue: Waiting[] = [];
  #busy = false;
  #closed = false;

  constructor(private readonly deadlineMs = recurrenceDeadlineMs) {}

  /** The first occurrence strictly after `after`, or null when the rule has ended; throws RecurrenceError for a bad rule. */
  async next(text: string, after: Date): Promise<Date | null> {
    const answer = await this.ask({ op: 'next', text, after: after.toISOString() });
    return answer.next ? new Date(answer.next) : null;
  }

  /**
   * A rule as a caller submits it: `next`, and refused when two occurrences can come closer
   * than `minIntervalMs` or a COUNT rule is too long to evaluate from its DTSTART each time.
   */
  async check(text: string, after: Date, minIntervalMs: number): Promise<Date | null> {
    const answer = await this.ask({ op: 'check', text, after: after.toISOString(), minIntervalMs });
    return answer.next ? new Date(answer.next) : null;
  }

  /** Occurrences in (after, through], at most `cap`, and the first one after them. */
  async count(text: string, after: Date, through: Date, cap: number): Promise<{ count: number; next: Date | null }> {
    const answer = await this.ask({ op: 'count', text, after: after.toISOString(), through: through.toISOString(), cap });
    return { count: answer.count ?? 0, next: answer.next ? new Date(answer.next) : null };
  }

  /** Requests waiting or being evaluated (tests; the per-caller gate). */
  get pending(): number {
    return this.#queue.length + (this.#busy ? 1 : 0);
  }

  close(): Promise<void> {
    this.#closed = true;
    const started = this.#worker;
    this.#worker = undefined;
    for (const waiting of this.#queue.splice(0)) waiting.reject(new RecurrenceError('the service is stopping'));
    return started ? started.worker.terminate().then(() => undefined) : Promise.resolve();
  }

  private async ask(request: Request): Promise<Answer> {
    if (this.#closed) throw new RecurrenceError('the service is stopping');
    const answer = await new Promise<Answer>((resolve, reject) => {
      this.#queue.push({ request, resolve, reject });
      this.#pump();
    });
    if (!answer.ok) throw new RecurrenceError(answer.reason ?? 'invalid rule');
    return answer;
  }

  #pump(): void {
    if (this.#busy) return;
    const waiting = this.#queue.shift();
    if (!waiting) return;
    this.#busy = true;
    void this.#evaluate(waiting.request)
      .then(waiting.resolve, waiting.reject)
      .finally(() => {
        this.#busy = false;
        this.#pump();
      });
  }

  /** One request in the worker, alone: a deadline past ends the worker, and refuses this request only. */
  async #evaluate(request: Request): Promise<Answer> {
    const { worker, ready } = this.#started();
    // The deadline is for the rule, not for starting the thread: loading rrule and luxon took
    // over a second on a loaded machine and refused a fresh service's first rule.
    await ready;
    const id = this.#nextId++;
    return new Promise<Answer>((resolve, reject) => {
      const onMessage = (answer: Answer) => {
        if (answer.id !== id) return;
        settle();
        resolve(answer);
      };
      const onGone = (error?: unknown) => {
        settle();
        if (this.#worker?.worker === worker) this.#worker = undefined;
        reject(error instanceof Error ? error : new RecurrenceError('the rule checker stopped; try again'));
      };
      const timer = setTimeout(() => {
        settle();
        if (this.#worker?.worker === worker) this.#worker = undefined;
        void worker.terminate();
        reject(
          new RecurrenceError(
            `evaluating the rule took longer than ${this.deadlineMs} ms: it may match no date at all (such as BYMONTHDAY=30;BYMONTH=2)`,
            true,
          ),
        );
      }, this.deadlineMs);
      const settle = () => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onGone);
        worker.off('exit', onGone);
      };
      worker.on('message', onMessage);
      worker.once('error', onGone);
      worker.once('exit', onGone);
      worker.postMessage({ id, ...request });
    });
  }

  #started(): StartedWorker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(recurrenceWorkerSource, {
      eval: true,
      workerData: { deadlineMs: this.deadlineMs, rrulePath: require.resolve('rrule'), luxonPath: require.resolve('luxon') },
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
    worker.on('error', () => {
      if (this.#worker?.worker === worker) this.#worker = undefined;
    });
    this.#worker = { worker, ready };
    return this.#worker;
  }
}
