import { DmsJobFailedError } from './errors.js';
import { linkedSignal } from './signals.js';
import type { ActiveJobStatus, CallOptions } from './types.js';

/** The server holds a long poll at most this long (`wait`, DESIGN §14). */
const maxWaitSeconds = 30;

export interface WaitOptions extends CallOptions {
  /** Called with each status seen, the first one included. */
  onProgress?: (status: ActiveJobStatus) => void;
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
}

/** Reads the job, waiting on the server up to `waitSeconds` for its status to change. */
export type FollowJob = (jobId: string, waitSeconds: number, signal: AbortSignal | undefined) => Promise<ActiveJobStatus>;

/**
 * Which job statuses are final. The SDK reads the API, never the core (whose list is
 * `finishedJobStatuses`), and the OpenAPI document names the statuses without saying which end
 * a job; so the split is kept here, keyed by the generated status type: a status added to the
 * API fails this file's typecheck until it is placed.
 */
const finished: Record<ActiveJobStatus['status'], boolean> = { queued: false, working: false, completed: true, failed: true };
const running = (status: ActiveJobStatus) => !finished[status.status];

export function jobHandle(first: ActiveJobStatus, follow: FollowJob): JobHandle {
  let status = first;
  const handle: JobHandle = {
    id: first.job_id,
    get status() {
      return status;
    },
    async refresh(options = {}) {
      return (status = await follow(first.job_id, 0, options.signal));
    },
    async wait({ onProgress, signal: userSignal, timeoutMs } = {}) {
      const { signal, release } = linkedSignal(userSignal, timeoutMs, `job ${first.job_id}`);
      try {
        onProgress?.(status);
        while (running(status)) {
          signal.throwIfAborted();
          const previous = status;
          status = await follow(first.job_id, maxWaitSeconds, signal);
          if (status.status !== previous.status || status.progress !== previous.progress) onProgress?.(status);
        }
      } finally {
        release();
      }
      if (status.status === 'failed') throw new DmsJobFailedError(status);
      return status;
    },
  };
  return handle;
}
