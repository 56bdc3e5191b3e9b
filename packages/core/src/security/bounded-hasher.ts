import { DomainError } from '../errors/domain-error.js';
import type { PasswordHasher } from '../ports/password-hasher.js';

export interface HasherBounds {
  /** argon2 runs on libuv's thread pool (4 threads by default): leave room for fs, dns and zlib. */
  concurrency: number;
  /** Checks waiting beyond this are refused with 503 rather than queued without end. */
  maxWaiting: number;
}

export const defaultHasherBounds: HasherBounds = { concurrency: 2, maxWaiting: 64 };

/**
 * A PasswordHasher that runs at most `concurrency` argon2 operations at once, so a flood of
 * password guesses cannot fill the thread pool that share scans, DNS and file reads need.
 */
export function boundHasher(hasher: PasswordHasher, bounds: HasherBounds = defaultHasherBounds): PasswordHasher {
  let running = 0;
  const waiting: Array<() => void> = [];
  const run = async <T>(work: () => Promise<T>): Promise<T> => {
    if (running >= bounds.concurrency) {
      if (waiting.length >= bounds.maxWaiting) {
        throw new DomainError('unavailable', 'too many password checks in progress; retry shortly', { retryAfter: 1 });
      }
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
    running += 1;
    try {
      return await work();
    } finally {
      running -= 1;
      waiting.shift()?.();
    }
  };
  return {
    hash: (password) => run(() => hasher.hash(password)),
    verify: (passwordHash, password) => run(() => hasher.verify(passwordHash, password)),
  };
}
