import { opendir } from 'node:fs/promises';
import { DriverError } from '../../ports/share-driver.js';
import type { DriverRun, DriverStepName, PathCheck, ScanResult, ScanRun, ShareDriver, ShareLocation, TestResult } from '../../ports/share-driver.js';
import { StepReporter, runTest } from '../share-drivers/step-reporter.js';
import { checkConfinedPath, localFsMessage } from './confine-path.js';
import { openConfinedDirectory } from './confined-directory.js';
import type { ConfinedDirectory } from './confined-directory.js';
import { scanConfinedDirectory } from './scan-directory.js';
import { statfsCapacity } from './statfs-capacity.js';
import { withHostPath } from '../../domain/host-path-note.js';
import type { ScanEngineOptions } from './scan-directory.js';

export interface LocalDriverOptions extends ScanEngineOptions {
  /** Directories local shares may point into; relative share paths live in the first. */
  roots: readonly string[];
}

// No host to resolve or connect to: a local share is opened and listed, nothing more.
const steps: readonly DriverStepName[] = ['open_path', 'list'];

/** Entries a test reads at most: enough to prove the directory lists, without walking it. */
const listedAtMost = 8;

/** Reads up to `listedAtMost` entries and says how many it read. */
async function listFirstEntries(dir: ConfinedDirectory, shown: string): Promise<number> {
  await dir.verify();
  try {
    const handle = await opendir(dir.path, { bufferSize: 32 });
    try {
      let listed = 0;
      while (listed < listedAtMost && (await handle.read()) !== null) listed += 1;
      return listed;
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw new DriverError(localFsMessage(error, shown));
  }
}

/**
 * "opened 'projects', 3 entries listed (host path: /srv/dms/shares/projects)": the share's path,
 * then the real directory, for admins only (host-path-note.ts); at the bound it says it stopped there.
 */
function localTestSummary(shown: string, real: string, listed: number): string {
  const summary = listed >= listedAtMost ? `listed the first ${listed} entries` : `${listed} ${listed === 1 ? 'entry' : 'entries'} listed`;
  return withHostPath(`opened '${shown}', ${summary}`, real);
}

export function createLocalDriver(options: LocalDriverOptions): ShareDriver {
  const roots = [...options.roots];
  return {
    testSteps: () => steps,

    test(location: ShareLocation, run: DriverRun): Promise<TestResult> {
      const reporter = new StepReporter(steps, run);
      return runTest(async () => {
        const dir = await reporter.step('open_path', () => openConfinedDirectory(roots, location.path));
        try {
          const listed = await reporter.step('list', () => listFirstEntries(dir, location.path));
          return { message: localTestSummary(location.path, dir.real, listed), capacity: await statfsCapacity(dir.path) };
        } finally {
          await dir.close();
        }
      });
    },

    checkPath: (location: ShareLocation): Promise<PathCheck> => checkConfinedPath(roots, location.path),

    async scan(location: ShareLocation, run: ScanRun): Promise<ScanResult> {
      const dir = await openConfinedDirectory(roots, location.path);
      try {
        const counts = await scanConfinedDirectory(dir, options, run);
        return { ...counts, capacity: await statfsCapacity(dir.path) };
      } finally {
        await dir.close();
      }
    },
  };
}
