/**
 * A signal that aborts when `parent` does, or after `timeoutMs` with a TimeoutError, as
 * `AbortSignal.any([parent, AbortSignal.timeout(ms)])` would; that needs Node 20.3, and
 * `release()` here also frees the timer at once, so a finished call keeps no process alive.
 */
export function linkedSignal(parent: AbortSignal | undefined, timeoutMs: number | undefined, what: string): { signal: AbortSignal; release(): void } {
  const controller = new AbortController();
  const abort = () => controller.abort(parent?.reason);
  if (parent?.aborted) abort();
  else parent?.addEventListener('abort', abort, { once: true });
  const timer =
    timeoutMs === undefined || !Number.isFinite(timeoutMs)
      ? undefined
      : setTimeout(() => controller.abort(new DOMException(`${what}: no answer within ${timeoutMs} ms`, 'TimeoutError')), timeoutMs);
  return {
    signal: controller.signal,
    release() {
      clearTimeout(timer);
      parent?.removeEventListener('abort', abort);
    },
  };
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
