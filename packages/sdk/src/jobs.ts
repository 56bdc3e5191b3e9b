import { DmsJobFailedError, isDmsApiError } from './errors.js';
import { linkedSignal } from './signals.js';
import type { ActiveJobStatus, CallOptions } from './types.js';

/** The server holds a long poll at most this long (`wait`, docs/api.md#jobs). */
const maxWaitSeconds = 30;

export interface WaitOptions<Status extends ActiveJobStatus = ActiveJobStatus> extends CallOptions {
  /** Called with the first status and then with each answer that differs from the one before (status, progress, counts, steps). */
  onProgress?: (status: Status) => void;
  /** Gives up with a TimeoutError after this long; the job itself goes on. */
  timeoutMs?: number;
}

/** A share test or scan as it runs on the server. */
export interface JobHandle {
  readonly id: string;
  /** The latest status seen; `refresh()` and `wait()` update it. */
  readonly status: ActiveJobStatus;
  /** Reads the job's status now. */
  refresh(options?: CallOptions): Promise<ActiveJobStatus>;
  /**
   * Long-polls until the job has finished: resolves with the completed status, rejects with
   * DmsJobFailedError (the job's message and steps) when it failed.
   */
  wait(options?: WaitOptions): Promise<ActiveJobStatus>;
  /**
   * The job as it advances: the latest status seen, then each answer of the long poll that
   * differs (status, progress, a scan's counts so far, steps), ending after the finished one,
   * completed or failed (it does not throw for a failed job: the last status says so). An
   * abort or `timeoutMs` rejects the pending step with an AbortError or TimeoutError; leaving
   * the loop early stops following.
   */
  progress(options?: ProgressOptions): AsyncIterableIterator<ActiveJobStatus>;
}

export type ProgressOptions = Omit<WaitOptions, 'onProgress'>;

/** Reads the job, waiting on the server up to `waitSeconds` for it to change. */
export type FollowJob<Status extends ActiveJobStatus = ActiveJobStatus> = (
  jobId: string,
  waitSeconds: number,
  signal: AbortSignal | undefined,
) => Promise<Status>;

/**
 * Which job statuses are final. The SDK reads the API, never the core (whose list is
 * `finishedJobStatuses`), and the OpenAPI document names the statuses without saying which end
 * a job; so the split is kept here, keyed by the generated status type: a status added to the
 * API fails this file's typecheck until it is placed.
 */
const finished: Record<ActiveJobStatus['status'], boolean> = { queued: false, working: false, completed: true, failed: true };
const running = (status: ActiveJobStatus) => !finished[status.status];

/**
 * The fields of active_job_status, in one order. A handle shows these whichever path answered
 * (GET /jobs/{job_id} adds who, where and when), so its status compares equal across them; a
 * field added to the API fails the typecheck here until it is listed.
 */
const activeFields: Record<keyof ActiveJobStatus, true> = {
  job_id: true,
  status: true,
  progress: true,
  total: true,
  message: true,
  steps: true,
  file_count: true,
  file_size_sum: true,
  directories: true,
  entries_per_second: true,
};

export function activeStatusOf(job: ActiveJobStatus): ActiveJobStatus {
  const status: Record<string, unknown> = {};
  for (const field of Object.keys(activeFields)) if (field in job) status[field] = job[field as keyof ActiveJobStatus];
  return status as ActiveJobStatus;
}

/** Two answers are the same when every field of active_job_status is (a timed-out long poll). */
const sameAnswer = (a: ActiveJobStatus, b: ActiveJobStatus) => JSON.stringify(activeStatusOf(a)) === JSON.stringify(activeStatusOf(b));

/**
 * `first`, then each answer of the long poll that differs from the one before, until one is
 * finished (yielded too). `onAnswer` sees every answer, changed or not.
 */
export async function* followChanges<Status extends ActiveJobStatus>(
  first: Status,
  follow: FollowJob<Status>,
  { signal: userSignal, timeoutMs }: ProgressOptions,
  onAnswer: (status: Status) => void = () => {},
): AsyncGenerator<Status, void, undefined> {
  const { signal, release } = linkedSignal(userSignal, timeoutMs, `job ${first.job_id}`);
  let status = first;
  try {
    yield status;
    while (running(status)) {
      signal.throwIfAborted();
      const previous = status;
      status = await follow(first.job_id, maxWaitSeconds, signal);
      onAnswer(status);
      if (!sameAnswer(status, previous)) yield status;
    }
  } finally {
    release();
  }
}

/**
 * Long-polls from `first` until the job has finished, calling `onProgress` with `first` and
 * each answer that differs from the one before. Resolves with the completed job, rejects with
 * DmsJobFailedError for a failed one.
 */
export async function followUntilFinished<Status extends ActiveJobStatus>(
  first: Status,
  follow: FollowJob<Status>,
  options: WaitOptions<Status>,
  onAnswer?: (status: Status) => void,
): Promise<Status> {
  let status = first;
  for await (status of followChanges(first, follow, options, onAnswer)) options.onProgress?.(status);
  if (status.status === 'failed') throw new DmsJobFailedError(status);
  return status;
}

/**
 * Follows a job through GET /jobs/{job_id}, whose long poll wakes on every change (progress
 * included), and shows it as active_job_status. Where that answers 403 (a key without
 * `jobs / show`) or 404 (a server from before it), the handle follows the path the job was
 * started on from then on (whose long poll wakes at every change too since issue 40 item 14;
 * older servers woke it on a change of status only).
 */
export function preferJobResource(jobResource: FollowJob, startedOn: FollowJob): FollowJob {
  let fallBack = false;
  return async (jobId, waitSeconds, signal) => {
    if (!fallBack) {
      try {
        return activeStatusOf(await jobResource(jobId, waitSeconds, signal));
      } catch (error) {
        if (!isDmsApiError(error) || (error.status !== 403 && error.status !== 404)) throw error;
        fallBack = true;
      }
    }
    return activeStatusOf(await startedOn(jobId, waitSeconds, signal));
  };
}

export function jobHandle(first: ActiveJobStatus, follow: FollowJob): JobHandle {
  let status = activeStatusOf(first);
  const seen = (answer: ActiveJobStatus) => {
    status = answer;
  };
  const handle: JobHandle = {
    id: first.job_id,
    get status() {
      return status;
    },
    async refresh(options = {}) {
      return (status = await follow(first.job_id, 0, options.signal));
    },
    wait: (options = {}) => followUntilFinished(status, follow, options, seen),
    progress: (options = {}) => followChanges(status, follow, options, seen),
  };
  return handle;
}
