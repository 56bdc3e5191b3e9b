import { availableParallelism } from 'node:os';
import { DomainError } from '../errors/domain-error.js';
import type { PasswordHasher, VerifyLane } from '../ports/password-hasher.js';
import { hasherDefaults } from '../defaults.js';

export interface HasherBounds {
  /** argon2 runs on libuv's thread pool (4 threads by default): leave room for fs, dns and zlib. */
  concurrency: number;
  /** Checks waiting in all, beyond which the address with the most waiting gives one up (503). */
  maxWaiting: number;
  /** Checks one address may have waiting; beyond, that address is refused (503). */
  maxWaitingPerAddress: number;
}

/**
 * argon2 keeps a core busy for each check it runs: on a small machine one core stays free for
 * the event loop, so a flood of password checks slows sign-ins, never every other request.
 */
export const defaultHasherBounds: HasherBounds = {
  concurrency: Math.max(1, Math.min(hasherDefaults.maxConcurrency, availableParallelism() - 1)),
  maxWaiting: hasherDefaults.maxWaiting,
  maxWaitingPerAddress: hasherDefaults.maxWaitingPerAddress,
};

interface Waiter {
  start: () => void;
  refuse: (error: DomainError) => void;
}

const busy = () => new DomainError('unavailable', 'too many password checks in progress; retry shortly', { retryAfter: 1 });

/**
 * Waiting checks, served in turn across addresses (round robin in the Map's insertion order),
 * and a lane before them for credentials that verified before: a flood of guesses from many
 * addresses delays a user by one turn of the ring, never refuses one who knows their password,
 * and a user's first sign-in from an address of its own is let in by pushing out a flooder's.
 */
class FairWaitingRoom {
  readonly #known: Waiter[] = [];
  readonly #byAddress = new Map<string, Waiter[]>();
  #waiting = 0;

  constructor(private readonly bounds: HasherBounds) {}

  enter(lane: VerifyLane | undefined, waiter: Waiter): void {
    if (lane?.known) {
      if (this.#known.length >= this.bounds.maxWaiting) throw busy();
      this.#known.push(waiter);
      return;
    }
    const address = lane?.address ?? '';
    const queue = this.#byAddress.get(address) ?? [];
    if (queue.length >= this.bounds.maxWaitingPerAddress) throw busy();
    if (this.#waiting >= this.bounds.maxWaiting && !this.evictFromLongest(queue.length)) throw busy();
    queue.push(waiter);
    this.#waiting += 1;
    if (queue.length === 1) this.#byAddress.set(address, queue);
  }

  /** The next check to run: a known credential's, else the next address's in turn. */
  next(): Waiter | undefined {
    const known = this.#known.shift();
    if (known) return known;
    for (const [address, queue] of this.#byAddress) {
      const waiter = queue.shift();
      this.#byAddress.delete(address);
      if (queue.length > 0) this.#byAddress.set(address, queue);
      if (waiter) {
        this.#waiting -= 1;
        return waiter;
      }
    }
    return undefined;
  }

  /** Refuses the newest check of the address with the most waiting, if it has more than `than`. */
  private evictFromLongest(than: number): boolean {
    let longest: Waiter[] | undefined;
    for (const queue of this.#byAddress.values()) if (queue.length > (longest?.length ?? than)) longest = queue;
    const evicted = longest?.pop();
    if (!evicted) return false;
    this.#waiting -= 1;
    evicted.refuse(busy());
    return true;
  }
}

/**
 * A PasswordHasher that runs at most `concurrency` argon2 operations at once, so a flood of
 * password guesses cannot fill the thread pool that share scans, DNS and file reads need,
 * and that shares what waits fairly (see FairWaitingRoom).
 */
export function boundHasher(hasher: PasswordHasher, bounds: HasherBounds = defaultHasherBounds): PasswordHasher {
  let running = 0;
  const room = new FairWaitingRoom(bounds);
  const run = async <T>(lane: VerifyLane | undefined, work: () => Promise<T>): Promise<T> => {
    if (running >= bounds.concurrency) {
      await new Promise<void>((start, refuse) => room.enter(lane, { start, refuse }));
    } else {
      running += 1;
    }
    try {
      return await work();
    } finally {
      // The slot passes straight to the next waiter, so a new arrival cannot jump the queue.
      const next = room.next();
      if (next) next.start();
      else running -= 1;
    }
  };
  return {
    hash: (password) => run(undefined, () => hasher.hash(password)),
    verify: (passwordHash, password, lane) => run(lane, () => hasher.verify(passwordHash, password)),
  };
}
