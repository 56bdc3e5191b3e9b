export interface SnmpWorkBudgetOptions {
  /** Milliseconds of work the agent may do per second, all sources together. */
  msPerSecond?: number;
  /** Milliseconds of work it may do at once, after a quiet spell. */
  burstMs?: number;
  /** The share of both one source address may take. */
  perAddressShare?: number;
  /** Source addresses tracked at once; the oldest is forgotten beyond. */
  maxAddresses?: number;
  /** A monotonic clock in milliseconds (`performance.now` by default); tests move it. */
  now?: () => number;
}

interface Bucket {
  ms: number;
  at: number;
}

/**
 * How much of the event loop the SNMP agent may take: buckets of milliseconds of work,
 * refilled with time, one for the agent and one per source address. A datagram is read only
 * while both hold some; what it then cost is charged after. A flood of requests, however
 * cheap each one, gets the agent at most `msPerSecond` of every second, and no single source
 * more than its share: the rest is dropped unread, as a busy agent drops datagrams.
 */
export class SnmpWorkBudget {
  readonly #rate: number;
  readonly #burst: number;
  readonly #share: number;
  readonly #maxAddresses: number;
  readonly #now: () => number;
  readonly #total: Bucket;
  readonly #byAddress = new Map<string, Bucket>();

  constructor(options: SnmpWorkBudgetOptions = {}) {
    this.#rate = (options.msPerSecond ?? 100) / 1000;
    this.#burst = options.burstMs ?? 50;
    this.#share = options.perAddressShare ?? 0.5;
    this.#maxAddresses = options.maxAddresses ?? 1024;
    this.#now = options.now ?? (() => performance.now());
    this.#total = { ms: this.#burst, at: this.#now() };
  }

  /** Whether a datagram from `address` may be handled now. */
  allows(address: string): boolean {
    const now = this.#now();
    this.#refill(this.#total, now, 1);
    if (this.#total.ms <= 0) return false;
    const own = this.#byAddress.get(address);
    if (!own) return true;
    this.#refill(own, now, this.#share);
    return own.ms > 0;
  }

  /** Takes the time handling a datagram from `address` took (or answering it, later). */
  charge(address: string, ms: number): void {
    const cost = Math.max(ms, 0);
    const now = this.#now();
    this.#refill(this.#total, now, 1);
    this.#total.ms -= cost;
    let own = this.#byAddress.get(address);
    if (own) {
      this.#refill(own, now, this.#share);
    } else {
      if (this.#byAddress.size >= this.#maxAddresses) {
        const oldest = this.#byAddress.keys().next().value;
        if (oldest !== undefined) this.#byAddress.delete(oldest);
      }
      own = { ms: this.#burst * this.#share, at: now };
      this.#byAddress.set(address, own);
    }
    own.ms -= cost;
  }

  #refill(bucket: Bucket, now: number, share: number): void {
    const elapsed = Math.max(now - bucket.at, 0);
    bucket.ms = Math.min(bucket.ms + elapsed * this.#rate * share, this.#burst * share);
    bucket.at = now;
  }
}
