export interface ProgressSaverOptions<T> {
  /** Stores one snapshot (a committed write on PostgreSQL: a round trip and a WAL flush). */
  write: (snapshot: T) => Promise<void>;
  /** Least time between the end of one save and the start of the next. */
  intervalMs: number;
  /** The injected clock, in ms. */
  now: () => number;
  onError: (error: unknown) => void;
}

/** Longest pause before saving again after storage refused a save. */
const maxRetryPauseMs = 5_000;

/**
 * Saves a running job's progress without a write per report: the latest report is saved
 * once `intervalMs` has passed since the last save ended (trailing), the claim counting as the
 * first save, with one save in flight at a time. Counting from a save's end, not its start, keeps
 * stored changes (and so the answers of a long-poll) `intervalMs` apart even when one write is
 * slow and the next fast. A job that ends within the interval costs its claim and its finish
 * only, and its finish carries every step; a long one shows its progress at most `intervalMs`
 * (plus a write) late.
 */
export class ProgressSaver<T> {
  readonly #options: ProgressSaverOptions<T>;
  #latest: T;
  #unsaved = false;
  #lastSave: number;
  #timer: NodeJS.Timeout | undefined;
  #writing = false;
  #inFlight: Promise<void> = Promise.resolve();
  #closed = false;
  /** The least time to the next save: `intervalMs`, doubled after each refused save up to `maxRetryPauseMs`. */
  #pauseMs: number;

  constructor(initial: T, options: ProgressSaverOptions<T>) {
    this.#options = options;
    this.#latest = initial;
    this.#lastSave = options.now();
    this.#pauseMs = options.intervalMs;
  }

  /** The newest progress; saved now if the interval is over, else when it is. */
  report(snapshot: T): void {
    this.#latest = snapshot;
    this.#unsaved = true;
    this.#plan();
  }

  /**
   * A heartbeat: the job is alive. Saves the latest progress at once unless a save is in flight
   * or due within the interval (either refreshes the heartbeat too), so a beat never brings a
   * report forward.
   */
  save(): void {
    if (this.#closed || this.#writing || this.#timer) return;
    this.#write();
  }

  /** No more saves; resolves once the one in flight has settled (the finish comes after it). */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#inFlight;
  }

  #plan(): void {
    if (this.#closed || this.#writing || this.#timer || !this.#unsaved) return;
    const wait = this.#lastSave + this.#pauseMs - this.#options.now();
    if (wait <= 0) this.#write();
    else {
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        this.#plan();
      }, wait);
    }
  }

  #write(): void {
    const snapshot = this.#latest;
    this.#unsaved = false;
    this.#writing = true;
    this.#inFlight = this.#options
      .write(snapshot)
      .then(
        () => {
          this.#pauseMs = this.#options.intervalMs;
        },
        (error: unknown) => {
          // Storage refused it (a full disk, a lock held elsewhere): the latest progress is tried
          // again after a pause that grows while refusals go on; the finish waits for none of it
          // (it carries every step).
          this.#unsaved = true;
          this.#pauseMs = Math.min(this.#pauseMs * 2, maxRetryPauseMs);
          this.#options.onError(error);
        },
      )
      .then(() => {
        this.#writing = false;
        this.#lastSave = this.#options.now();
        this.#plan();
      });
  }
}
