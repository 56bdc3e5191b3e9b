import type { ScanProgress } from '../../ports/share-driver.js';

/**
 * The remote walks' progress: called as each listing settles, it hands the run a copy of the
 * totals at most once per interval, so many small listings in parallel don't flood the job with
 * answers. An interval of 0 reports after every listing (the tests' setting). A throw from the
 * run's callback comes out of the call, for the walk to end with it.
 */
export function throttledProgress(intervalMs: number, onProgress: (progress: ScanProgress) => void): (totals: ScanProgress) => void {
  let last = performance.now();
  return (totals) => {
    const now = performance.now();
    if (now - last < intervalMs) return;
    last = now;
    onProgress({ ...totals });
  };
}
