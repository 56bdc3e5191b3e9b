import { DriverError } from '../../ports/share-driver.js';
import type { ScanResult, ScanRun } from '../../ports/share-driver.js';
import type { ConfinedDirectory } from './confined-directory.js';
import { detectGnuFind, findWalk } from './find-walk.js';
import { walkTree } from './walk-tree.js';

export interface ScanEngineOptions {
  /**
   * `auto` (default) walks with GNU find where present, else with worker threads. A scan that
   * asks for analytics walks with worker threads whatever this says: find hands back sizes only.
   * Scan jobs always ask for analytics, so this only chooses the walk of a scan without a sink
   * (the driver's own tests).
   */
  scanEngine?: 'auto' | 'find' | 'workers';
  /** Walker threads of the `workers` engine; see WalkOptions.workers. */
  scanWorkers?: number;
}

/**
 * Walks a share's directory from the handle `openConfinedDirectory` gave, never from the
 * share's path again: what was checked is what gets counted. Split from the driver so a test
 * can change the tree between the open and the walk.
 */
export async function scanConfinedDirectory(dir: ConfinedDirectory, options: ScanEngineOptions, run: ScanRun): Promise<ScanResult> {
  const engine = options.scanEngine ?? 'auto';
  const onProgress = run.onProgress.bind(run);
  const analytics = run.analytics;
  const find = engine === 'workers' || analytics !== undefined ? undefined : await detectGnuFind();
  if (engine === 'find' && analytics === undefined && find === undefined) throw new DriverError('GNU find is not installed (apt-get install findutils)');
  await dir.verify();
  const result =
    find !== undefined
      ? await findWalk(dir.path, { signal: run.signal, onProgress, findPath: find })
      : await walkTree(dir.path, {
          signal: run.signal,
          onProgress,
          ...(options.scanWorkers === undefined ? {} : { workers: options.scanWorkers }),
          ...(analytics === undefined ? {} : { analytics }),
        });
  // Counts of a walk that may have left the roots (a swap during it) are not handed out.
  await dir.verify();
  return result;
}
