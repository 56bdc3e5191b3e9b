import type { DriverStepName, ScanProgress, ScanRun, ShareLocation } from '../ports/share-driver.js';
import type { StepOutcome } from '../domain/job.js';
import type { NasType } from '../domain/common.js';

export type RecordedStep = StepOutcome & { name: DriverStepName };

export interface RecordingRun extends ScanRun {
  steps: RecordedStep[];
  progress: ScanProgress[];
  controller: AbortController;
}

/** A DriverRun/ScanRun that keeps what a driver reported, for tests of drivers and jobs. */
export function recordingRun(options: { timeoutMs?: number; onProgress?: (p: ScanProgress) => void } = {}): RecordingRun {
  const controller = new AbortController();
  const steps: RecordedStep[] = [];
  const progress: ScanProgress[] = [];
  return {
    controller,
    steps,
    progress,
    signal: controller.signal,
    timeoutMs: options.timeoutMs ?? 10_000,
    onStep: (step) => steps.push(step),
    onProgress: (p) => {
      progress.push(p);
      options.onProgress?.(p);
    },
  };
}

/** A ShareLocation with defaults, for tests. */
export function shareLocation(
  type: NasType,
  fields: Partial<Omit<ShareLocation, 'type' | 'options'>> & { options?: Record<string, string | true> } = {},
): ShareLocation {
  return {
    type,
    host: fields.host ?? '127.0.0.1',
    path: fields.path ?? '',
    options: new Map(Object.entries(fields.options ?? {})),
    username: fields.username ?? null,
    password: fields.password ?? null,
  };
}
