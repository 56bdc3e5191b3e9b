/**
 * A value a port answers at once when it can (a prepared SQLite read, an in-memory budget, a
 * remembered key) and later when it cannot (PostgreSQL, argon2). Callers that `await` it see
 * no difference; the request path chains it with `whenReady` and `recovering`, so a request
 * whose every step answers at once is answered in the same tick, without a promise per step.
 */
export type MaybePromise<T> = T | Promise<T>;

/** `next(value)`: at once when `value` is ready, once it settles when it is a promise. */
export function whenReady<T, R>(value: MaybePromise<T>, next: (value: T) => MaybePromise<R>): MaybePromise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/**
 * `run()`, with what it throws or rejects with passed to `recover`: synchronous as long as
 * both answer at once.
 */
export function recovering<R>(run: () => MaybePromise<R>, recover: (error: unknown) => MaybePromise<R>): MaybePromise<R> {
  let result: MaybePromise<R>;
  try {
    result = run();
  } catch (error) {
    return recover(error);
  }
  return result instanceof Promise ? result.catch(recover) : result;
}
