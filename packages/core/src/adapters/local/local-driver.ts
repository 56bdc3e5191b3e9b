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
import { localFsMessage } from './confine-path.js';
import { openConfinedDirectory } from './confined-directory.js';
import type { ConfinedDirectory } from './confined-directory.js';
import { scanConfinedDirectory } from './scan-directory.js';
import type { ScanEngineOptions } from './scan-directory.js';

export interface LocalDriverOptions extends ScanEngineOptions {
  /** Directories local shares may point into; relative share paths live in the first. */
  roots: readonly string[];
}

// No host to resolve or connect to: a local share is opened and listed, nothing more.
const steps: readonly DriverStepName[] = ['open_path', 'list'];

/** Reads up to a few entries: proves the directory can be listed without walking it. */
async function listFirstEntries(dir: ConfinedDirectory, shown: string): Promise<void> {
  await dir.verify();
  try {
    const handle = await opendir(dir.path, { bufferSize: 32 });
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
        const dir = await reporter.step('open_path', () => openConfinedDirectory(roots, location.path));
        try {
          await reporter.step('list', () => listFirstEntries(dir, location.path));
        } finally {
          await dir.close();
        }
      });
    },

    async scan(location: ShareLocation, run: ScanRun): Promise<ScanResult> {
      const dir = await openConfinedDirectory(roots, location.path);
      try {
        return await scanConfinedDirectory(dir, options, run);
      } finally {
        await dir.close();
      }
    },
  };
}
