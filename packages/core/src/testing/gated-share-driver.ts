import type { ShareDriver } from '../ports/share-driver.js';

/** A share driver whose test starts, then ends when the test says so: `running` resolves once a test has begun, `finishTest()` lets it end reached. */
export interface GatedShareDriver {
  driver: ShareDriver;
  running: Promise<void>;
  finishTest(): void;
}

/** The share driver above the port for engine tests that must act while a job runs (a unit test above a port, so a stand-in). */
export function gatedShareDriver(): GatedShareDriver {
  let finishTest: () => void = () => {};
  const gate = new Promise<void>((resolve) => (finishTest = resolve));
  let started: () => void = () => {};
  const running = new Promise<void>((resolve) => (started = resolve));
  const driver: ShareDriver = {
    testSteps: () => ['resolve_host'],
    test: async (_location, run) => {
      started();
      await gate;
      run.onStep({ step: 'resolve_host', outcome: 'ok' } as never);
      return { ok: true, message: 'reached' };
    },
    scan: async () => ({ file_count: 0, file_size_sum: 0 }),
  };
  return { driver, running, finishTest: () => finishTest() };
}
