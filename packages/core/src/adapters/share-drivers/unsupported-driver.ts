import { DriverError } from '../../ports/share-driver.js';
import type { DriverRun, DriverStepName, ScanResult, ShareDriver, TestResult } from '../../ports/share-driver.js';

// One step, so the job shows one failed step rather than a bare failure.
const steps: readonly DriverStepName[] = ['connect'];

/** For share types that can be stored but not reached (StorNext): says so at once. */
export function createUnsupportedDriver(message: string): ShareDriver {
  return {
    testSteps: () => steps,
    test(_location, run: DriverRun): Promise<TestResult> {
      run.onStep({ name: 'connect', outcome: 'failed', duration_ms: 0, message });
      return Promise.resolve({ ok: false, message });
    },
    scan(): Promise<ScanResult> {
      return Promise.reject(new DriverError(message));
    },
  };
}
