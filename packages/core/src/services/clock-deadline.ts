/** Longest real time between two looks at the injected clock. */
const lookEveryMs = 250;

/**
 * An AbortSignal aborted once the injected clock has moved `ms` on. The clock is looked at
 * every 250 ms of real time at most, so a test that moves it ends a wait without waiting it out.
 */
export function clockDeadline(clock: () => Date, ms: number): { signal: AbortSignal; cancel(): void } {
  const controller = new AbortController();
  const end = clock().getTime() + ms;
  let timer: NodeJS.Timeout | undefined;
  const look = () => {
    const left = end - clock().getTime();
    if (left <= 0) controller.abort();
    else timer = setTimeout(look, Math.min(lookEveryMs, left));
  };
  look();
  return { signal: controller.signal, cancel: () => clearTimeout(timer) };
}
