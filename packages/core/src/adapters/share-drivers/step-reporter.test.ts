import { describe, expect, it } from 'vitest';
import { DriverError } from '../../ports/share-driver.js';
import { recordingRun } from '../../testing/recording-run.js';
import { StepReporter, runTest } from './step-reporter.js';

describe('StepReporter', () => {
  it('records a skipped step with its reason and carries on', async () => {
    const run = recordingRun();
    const reporter = new StepReporter(['connect', 'open_path', 'list'], run);
    const result = await runTest(async () => {
      await reporter.step('connect', async () => undefined);
      await reporter.stepOrSkip('open_path', async () => 'not checked');
      await reporter.stepOrSkip('list', async () => undefined);
      return 'listed';
    });
    expect(result).toEqual({ ok: true, message: 'listed' });
    expect(run.steps.map((s) => [s.name, s.outcome, s.message])).toEqual([
      ['connect', 'ok', undefined],
      ['open_path', 'skipped', 'not checked'],
      ['list', 'ok', undefined],
    ]);
  });

  it('turns a DriverError into a failed step and skips the rest', async () => {
    const run = recordingRun();
    const reporter = new StepReporter(['connect', 'list'], run);
    const result = await runTest(async () => {
      await reporter.step('connect', () => Promise.reject(new DriverError('refused')));
      return 'never said';
    });
    expect(result).toEqual({ ok: false, message: 'refused' });
    expect(run.steps.map((s) => s.outcome)).toEqual(['failed', 'skipped']);
  });

  it('lets other errors through: they are bugs or aborts, not share problems', async () => {
    const reporter = new StepReporter(['connect'], recordingRun());
    await expect(runTest(() => reporter.step('connect', () => Promise.reject(new TypeError('bug'))))).rejects.toThrow('bug');
  });

  it('refuses steps out of the announced order', () => {
    const reporter = new StepReporter(['connect', 'list'], recordingRun());
    expect(() => reporter.ok('list', 0)).toThrow("driver reported step 'list' where 'connect' was due");
  });
});
