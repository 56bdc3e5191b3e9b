import type { AgentStatistics } from '../../ports/snmp-agent.js';

export interface StatisticsCacheOptions {
  read(): Promise<AgentStatistics>;
  /** A value younger than this is served as it is. */
  maxAgeMs?: number;
  /** A read slower than this answers with the last value (the manager would time out otherwise). */
  timeoutMs?: number;
  onError?(error: unknown): void;
  /** Milliseconds on a monotonic clock that ages the value (`performance.now` by default); tests move it. */
  now?: () => number;
}

const zero: AgentStatistics = { shareCount: 0, jobs: { queued: 0, working: 0, completed: 0, failed: 0 } };

/**
 * Statistics for the agent, refreshed on demand: a request finds a value at most ~1 s
 * old, one read serves every request of that second, and nothing polls storage while no
 * manager asks (several replicas on one PostgreSQL would each poll it forever).
 */
export class StatisticsCache {
  readonly #read: () => Promise<AgentStatistics>;
  readonly #maxAgeMs: number;
  readonly #timeoutMs: number;
  readonly #onError: (error: unknown) => void;
  readonly #now: () => number;
  #value: AgentStatistics = zero;
  #readAt = Number.NEGATIVE_INFINITY;
  #reading: Promise<void> | undefined;

  constructor(options: StatisticsCacheOptions) {
    this.#read = options.read;
    this.#maxAgeMs = options.maxAgeMs ?? 1000;
    this.#timeoutMs = options.timeoutMs ?? 500;
    this.#onError = options.onError ?? (() => {});
    this.#now = options.now ?? (() => performance.now());
  }

  get current(): AgentStatistics {
    return this.#value;
  }

  get(): Promise<AgentStatistics> {
    if (this.#now() - this.#readAt < this.#maxAgeMs) return Promise.resolve(this.#value);
    this.#reading ??= this.#refresh();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.#timeoutMs);
    });
    return Promise.race([this.#reading, late]).then(() => {
      clearTimeout(timer);
      return this.#value;
    });
  }

  async #refresh(): Promise<void> {
    try {
      // through a microtask, so a read that throws at once still settles after #reading is set
      this.#value = await Promise.resolve().then(() => this.#read());
    } catch (error) {
      this.#onError(error);
    } finally {
      // a failed read also waits maxAgeMs before the next try, so a broken store is not hammered
      this.#readAt = this.#now();
      this.#reading = undefined;
    }
  }
}
