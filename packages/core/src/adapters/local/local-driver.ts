import { opendir } from 'node:fs/promises';
import { DriverError } from '../../ports/share-driver.js';
import type {
  DriverRun,
  DriverStepName,
  ScanResult,
  ScanRun,
  ShareDriver,
  ShareLocation,
  TestResult,
} from '../../ports/share-driver.js';
import { StepReporter, runTest } from '../share-drivers/step-reporter.js';
import { localFsMessage, resolveConfinedPath } from './confine-path.js';
import { detectGnuFind, findWalk } from './find-walk.js';
import { walkTree } from './walk-tree.js';

export interface LocalDriverOptions {
  /** Directories local shares may point into; relative share paths live in the first. */
  roots: readonly string[];
  /** `auto` (default) walks with GNU find where present, else with worker threads. */
  scanEngine?: 'auto' | 'find' | 'workers';
  /** Walker threads of the `workers` engine; see WalkOptions.workers. */
  scanWorkers?: number;
}

// No host to resolve or connect to: a local share is opened and listed, nothing more.
const steps: readonly DriverStepName[] = ['open_path', 'list'];

/** Reads up to a few entries: proves the directory can be listed without walking it. */
async function listFirstEntries(dir: string, shown: string): Promise<void> {
  try {
    const handle = await opendir(dir, { bufferSize: 32 });
    try {
      for (let i = 0; i < 8 && (await handle.read()) !== null; i += 1);
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw new DriverError(localFsMessage(error, shown));
  }
}

export function createLocalDriver(options: LocalDriverOptions): ShareDriver {
  const roots = [...options.roots];
  return {
    testSteps: () => steps,

    test(location: ShareLocation, run: DriverRun): Promise<TestResult> {
      const reporter = new StepReporter(steps, run);
      return runTest(async () => {
        const dir = await reporter.step('open_path', () => resolveConfinedPath(roots, location.path));
        await reporter.step('list', () => listFirstEntries(dir, location.path));
      });
    },

    async scan(location: ShareLocation, run: ScanRun): Promise<ScanResult> {
      const dir = await resolveConfinedPath(roots, location.path);
      const engine = options.scanEngine ?? 'auto';
      const onProgress = run.onProgress.bind(run);
      const find = engine === 'workers' ? undefined : await detectGnuFind();
      if (engine === 'find' && find === undefined)
        throw new DriverError('GNU find is not installed (apt-get install findutils)');
      if (find !== undefined) return findWalk(dir, { signal: run.signal, onProgress, findPath: find });
      return walkTree(dir, {
        signal: run.signal,
        onProgress,
        ...(options.scanWorkers === undefined ? {} : { workers: options.scanWorkers }),
      });
    },
  };
}
