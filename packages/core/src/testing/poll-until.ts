/**
 * Reads until `done` says yes, every `everyMs`: what a test waits on instead of a sleep. Fails
 * after `timeoutMs`, naming `what` and the last value read (a read that throws counts as not yet).
 */
export async function pollUntil<T>(
  read: () => Promise<T> | T,
  done: (value: T) => boolean,
  what: string,
  { timeoutMs = 30_000, everyMs = 20 }: { timeoutMs?: number; everyMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let last: unknown;
    try {
      const value = await read();
      if (done(value)) return value;
      last = value;
    } catch (error) {
      last = String(error);
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
