export interface ParallelDrain<T> {
  /** Work not yet started, taken from the end; `work` may push more (a directory's subdirectories). */
  pending: T[];
  /** At most this many items in flight at once. */
  limit: number;
  work(item: T): Promise<void>;
  /** Called as each item settles; a throw ends the drain with it (the run's progress callback). */
  afterEach(): void;
  signal: AbortSignal;
}

/**
 * The remote walks' loop: keeps up to `limit` items in flight until nothing is pending or
 * running. Settles at the first failure or abort without waiting for the items still in flight
 * (the caller ends their sessions), so a failed scan answers at once.
 */
export function drainInParallel<T>(drain: ParallelDrain<T>): Promise<void> {
  const { pending, signal } = drain;
  return new Promise<void>((resolve, reject) => {
    let running = 0;
    let settled = false;
    const finish = (error?: unknown) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      if (error === undefined) resolve();
      else reject(error);
    };
    const onAbort = () => finish(signal.reason);
    const pump = () => {
      while (!settled && running < drain.limit && pending.length > 0) {
        const item = pending.pop() as T;
        running += 1;
        drain.work(item).then(
          () => {
            running -= 1;
            try {
              drain.afterEach();
            } catch (error) {
              return finish(error);
            }
            pump();
          },
          (error: unknown) => finish(error),
        );
      }
      if (!settled && running === 0 && pending.length === 0) finish();
    };
    if (signal.aborted) return finish(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    pump();
  });
}
