import { DriverError } from '../../ports/share-driver.js';
import type { DriverRun, DriverStepName, ShareCapacity, TestResult } from '../../ports/share-driver.js';

/** Thrown by StepReporter once a step failed; `test` turns it into `{ ok: false }`. */
export class StepFailed extends Error {
  override readonly name = 'StepFailed';
}

class SkipStep extends Error {}

/**
 * Reports a driver's steps to `run.onStep` in the order `testSteps` announced them, so the
 * job's progress/total stay consistent; after a failure every remaining step is `skipped`.
 */
export class StepReporter {
  private next = 0;

  constructor(
    private readonly steps: readonly DriverStepName[],
    private readonly run: DriverRun,
  ) {}

  /** Times `fn`; a DriverError it throws becomes the step's failure and ends the test. */
  async step<T>(name: DriverStepName, fn: () => Promise<T>): Promise<T> {
    this.run.signal.throwIfAborted();
    const started = performance.now();
    try {
      const value = await fn();
      this.ok(name, performance.now() - started);
      return value;
    } catch (error) {
      if (error instanceof DriverError && !this.run.signal.aborted) {
        this.fail(name, performance.now() - started, error.message);
      }
      throw error;
    }
  }

  /** Like `step`, for a step that may not apply: `fn` resolves with the reason to skip it. */
  async stepOrSkip(name: DriverStepName, fn: () => Promise<string | undefined>): Promise<void> {
    const started = performance.now();
    const skipped = await this.step(name, async () => {
      const reason = await fn();
      if (reason !== undefined) throw new SkipStep(reason);
    }).then(
      () => undefined,
      (error: unknown) => {
        if (error instanceof SkipStep) return error.message;
        throw error;
      },
    );
    if (skipped !== undefined) this.markSkipped(name, performance.now() - started, skipped);
  }

  ok(name: DriverStepName, durationMs: number): void {
    this.emit(name, { outcome: 'ok', duration_ms: Math.round(durationMs) });
  }

  /** A step that could not be carried out but does not fail the test; `message` says why. */
  markSkipped(name: DriverStepName, durationMs: number, message: string): void {
    this.emit(name, { outcome: 'skipped', duration_ms: Math.round(durationMs), message });
  }

  /** Records the failure, skips the rest, and throws StepFailed carrying the message. */
  fail(name: DriverStepName, durationMs: number, message: string): never {
    this.emit(name, { outcome: 'failed', duration_ms: Math.round(durationMs), message });
    while (this.next < this.steps.length) {
      const skipped = this.steps[this.next];
      if (skipped === undefined) break;
      this.emit(skipped, { outcome: 'skipped', duration_ms: 0 });
    }
    throw new StepFailed(message);
  }

  /** Fails whichever step comes next: for problems found before any network step (a bad path). */
  failNext(message: string): never {
    const name = this.steps[this.next];
    if (name === undefined) throw new Error('no step left to fail');
    return this.fail(name, 0, message);
  }

  private emit(name: DriverStepName, outcome: { outcome: 'ok' | 'failed' | 'skipped'; duration_ms: number; message?: string }): void {
    const expected = this.steps[this.next];
    // A mismatch is a driver bug: the job's step list would no longer match its total.
    if (expected !== name) throw new Error(`driver reported step '${name}' where '${String(expected)}' was due`);
    this.next += 1;
    this.run.onStep({ name, ...outcome });
  }
}

/**
 * Runs a test body built on a StepReporter and turns its StepFailed into a TestResult; the
 * body resolves with what succeeded, in plain words, and the capacity it read if any.
 */
export async function runTest(body: () => Promise<string | { message: string; capacity: ShareCapacity | undefined }>): Promise<TestResult> {
  try {
    const passed = await body();
    if (typeof passed === 'string') return { ok: true, message: passed };
    return { ok: true, message: passed.message, ...(passed.capacity === undefined ? {} : { capacity: passed.capacity }) };
  } catch (error) {
    if (error instanceof StepFailed) return { ok: false, message: error.message };
    throw error;
  }
}
