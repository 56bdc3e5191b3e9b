// The event loop's delay over a stretch of the bench (perf_hooks.monitorEventLoopDelay, at the
// 10 ms resolution of hostile/loop-probe.mjs): the service runs in the bench's process, so a
// histogram here sees every stall its scheduler, workers and storage cause.
import { monitorEventLoopDelay } from 'node:perf_hooks';

/** Starts a window now; `read()` its worst and p99 delay so far (ms), `stop()` ends it. */
export function loopDelayWindow() {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  return {
    read: () => ({ maxMs: histogram.max / 1e6, p99Ms: histogram.percentile(99) / 1e6, samples: histogram.count }),
    stop() {
      histogram.disable();
      return this.read();
    },
  };
}

/** The loop's delay over `ms` of doing nothing in the bench: what the service costs at rest. */
export async function idleLoopDelay(ms) {
  const window = loopDelayWindow();
  await new Promise((resolve) => setTimeout(resolve, ms));
  return window.stop();
}

/**
 * The longest stall of the loop over a short window (tens of ms), where a histogram may hold no
 * sample at all: the widest gap between the turns of a 1 ms timer, the last one up to `stop()`
 * included, so a stall that began in the window and outlasts it is counted whole.
 */
export function stallProbe() {
  let last = performance.now();
  let widest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    widest = Math.max(widest, now - last - 1);
    last = now;
  }, 1);
  return {
    stop() {
      clearInterval(timer);
      return { maxMs: Math.max(widest, performance.now() - last - 1) };
    },
  };
}
