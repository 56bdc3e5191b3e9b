import { setTimeout as sleep } from 'node:timers/promises';
import { isStorageUnavailable } from '../errors/storage-unavailable.js';

export interface UntilStoredOptions {
  /** The first pause after a refused write; each next one is twice as long, up to `maxPauseMs`. */
  firstPauseMs: number;
  maxPauseMs: number;
  /** Aborted when the engine stops: the write is tried once more, then its error is thrown. */
  stopping: AbortSignal;
  /** Told of every refused try (the service logs it). */
  onError: (error: unknown) => void;
}

/**
 * Runs an engine write until storage takes it. A full disk, another process's lock or a
 * database restarting refuses writes for a while and then takes them again: a job whose outcome
 * is known must not stay `working` for it (issue 40 fault A). The pauses are timers, growing and
 * bounded, so a long outage costs a try every few seconds and never holds the event loop.
 * `write` is told how many tries storage refused for another reason than unavailability (a
 * constraint, a driver error): a caller changes what it writes after some (a finish stores a
 * failure that says why) or gives up. Only a stop ends the tries without a stored write: the
 * job is then left to the next start's recovery, which fails it "interrupted".
 */
export async function untilStored<T>(write: (refusals: number) => Promise<T>, options: UntilStoredOptions): Promise<T> {
  let refusals = 0;
  for (let pause = options.firstPauseMs; ; pause = Math.min(pause * 2, options.maxPauseMs)) {
    try {
      return await write(refusals);
    } catch (error) {
      options.onError(error);
      if (options.stopping.aborted) throw error;
      if (!isStorageUnavailable(error)) refusals += 1;
    }
    await sleep(pause, undefined, { signal: options.stopping }).catch(() => {});
  }
}
