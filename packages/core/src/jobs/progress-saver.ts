export interface ProgressSaverOptions<T> {
  /** Stores one snapshot (a committed write on PostgreSQL: a round trip and a WAL flush). */
  write: (snapshot: T) => Promise<void>;
  /** Least time between two saves of reported progress. */
  intervalMs: number;
  /** The injected clock, in ms. */
  now: () => number;
  onError: (error: unknown) => void;
}

/**
 * Saves a running job's progress without a write per report: the latest report is saved
 * when `intervalMs` has passed since the last save (trailing), the claim counting as the
 * first save, with one save in flight at a time. A job that ends within the interval costs
 * its claim and its finish only, and its finish carries every step; a long one shows its
 * progress at most `intervalMs` late.
 */
export class ProgressSaver<T> {
  readonly #options: ProgressSaverOptions<T>;
  #latest: T;
  #lastSave: number;
  #timer: NodeJS.Timeout | undefined;
  #inFlight: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(initial: T, options: ProgressSaverOptions<T>) {
    this.#options = options;
    this.#latest = initial;
    this.#lastSave = options.now();
  }

  /** The newest progress; saved now if the interval is over, else when it is. */
  report(snapshot: T): void {
    this.#latest = snapshot;
    if (this.#timer || this.#closed) return;
    const wait = this.#lastSave + this.#options.intervalMs - this.#options.now();
    if (wait <= 0) this.save();
    else this.#timer = setTimeout(() => this.save(), wait);
  }

  /** Saves the latest progress at once, reported or not (a heartbeat: the job is alive). */
  save(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#closed) return;
    this.#lastSave = this.#options.now();
    const snapshot = this.#latest;
    this.#inFlight = this.#inFlight.then(() => this.#options.write(snapshot)).catch(this.#options.onError);
  }

  /** No more saves; resolves once the one in flight has settled (the finish comes after it). */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#inFlight;
  }
}
