import { DriverError, takesFoldedBatches } from '../../ports/share-driver.js';
import type { FoldingScanAnalyticsSink, ScanAnalyticsSink, ScanResult, ScanRun } from '../../ports/share-driver.js';
import type { ConfinedDirectory } from './confined-directory.js';
import { detectGnuFind, findWalk } from './find-walk.js';
import { loadNativeWalker, nativeWalkTree } from './native-walk.js';
import type { NativeWalker } from '@dms/native-walk';
import { walkTree } from './walk-tree.js';

export interface ScanEngineOptions {
  /**
   * `auto` (default) walks with the C walker of @dms/native-walk where it was built, else with
   * GNU find where present, else with worker threads. `native` insists on the C walker (an
   * error where it was not built). A scan that asks for analytics never walks with find (it
   * hands back sizes only), and with the C walker only when its sink takes folded batches.
   */
  scanEngine?: 'auto' | 'find' | 'workers' | 'native';
  /** Walker threads of the `workers` and `native` engines; see WalkOptions.workers. */
  scanWorkers?: number;
}

/** The C walker when the engine and the sink allow it; `native` without one is an error. */
async function nativeWalkerFor(engine: ScanEngineOptions['scanEngine'], analytics: ScanAnalyticsSink | undefined): Promise<NativeWalker | undefined> {
  if (engine !== 'native' && engine !== 'auto') return undefined;
  if (analytics !== undefined && !takesFoldedBatches(analytics)) {
    if (engine === 'native') throw new DriverError('the native walker needs an analytics sink that takes folded batches');
    return undefined;
  }
  const loaded = await loadNativeWalker();
  if (loaded.walker === undefined && engine === 'native') throw new DriverError(loaded.reason);
  return loaded.walker;
}

/** The engine `auto` walks with, for a scan into the analytics builder or one without analytics. */
export async function autoScanEngine(withAnalytics: boolean): Promise<'native' | 'find' | 'workers'> {
  if ((await loadNativeWalker()).walker !== undefined) return 'native';
  if (!withAnalytics && (await detectGnuFind()) !== undefined) return 'find';
  return 'workers';
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
  const native = await nativeWalkerFor(engine, analytics);
  const find = native !== undefined || engine === 'workers' || analytics !== undefined ? undefined : await detectGnuFind();
  if (engine === 'find' && analytics === undefined && find === undefined) throw new DriverError('GNU find is not installed (apt-get install findutils)');
  await dir.verify();
  const result =
    native !== undefined
      ? await nativeWalkTree(dir.path, native, {
          signal: run.signal,
          onProgress,
          ...(options.scanWorkers === undefined ? {} : { threads: options.scanWorkers }),
          ...(analytics === undefined ? {} : { analytics: analytics as FoldingScanAnalyticsSink }),
        })
      : find !== undefined
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
