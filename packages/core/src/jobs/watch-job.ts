import { isJobFinished, type ActiveJobStatus } from '../domain/job.js';
import type { JobSignals } from './job-signals.js';

/**
 * Longest wait between two reads of a watched job. A change made in this process, or signalled
 * by a replica over the event bus, wakes the watch at once; this covers a change nobody signals
 * here (a replica without the bus, a lost signal).
 */
export const watchPollMs = 250;

export interface WatchSource<S extends ActiveJobStatus = ActiveJobStatus> {
  /** The job's status as stored now; throws (404) once it is gone. */
  read(): Promise<S>;
  signals: Pick<JobSignals, 'nextChange'>;
  /** Aborted once the service drains for shutdown: this process changes no job any more. */
  draining: AbortSignal;
}

/**
 * Every change of a job, progress included, from `first` (its status now) on: yields `first`,
 * then each status that differs from the last yielded, after a wake-up on the job's change
 * signal or `watchPollMs`. Ends after yielding a finished status, when `signal` is aborted,
 * or when the service drains (a client asks again elsewhere or after the restart). The read
 * after the last wake-up is yielded if it changed, so a watch ended by its signal misses nothing.
 * The wait for a change is armed before each read: a change stored while a read is in flight
 * (the read sees the row before it) wakes the watch at once, not a poll later. `first` was read
 * before any wait was armed, so it is read once more.
 */
export async function* watchJob<S extends ActiveJobStatus>(jobId: string, first: S, source: WatchSource<S>, signal?: AbortSignal): AsyncGenerator<S, void> {
  if (isJobFinished(first)) {
    yield first;
    return;
  }
  const ended = new AbortController();
  const nextChange = () => source.signals.nextChange(jobId, watchPollMs, signal, source.draining, ended.signal);
  try {
    let wake = nextChange();
    const again = await source.read();
    let status = JSON.stringify(again) === JSON.stringify(first) ? first : again;
    let last: string | undefined;
    for (;;) {
      const seen = JSON.stringify(status);
      if (seen !== last) yield status;
      last = seen;
      if (isJobFinished(status) || signal?.aborted || source.draining.aborted) return;
      await wake;
      wake = nextChange();
      status = await source.read();
    }
  } finally {
    ended.abort();
  }
}

/**
 * A long-poll's answer: the job's first change of any kind after `first` (the caller's view:
 * progress counts as much as status), or its latest state once `signal` is aborted (the wait is
 * over) or the service drains. Every long-poll of a job answers through this one loop, so
 * `GET /jobs/{id}?wait=` and the share-scoped `GET …/test?job_id=&wait=` answer alike.
 */
export async function nextJobChange<S extends ActiveJobStatus>(jobId: string, first: S, source: WatchSource<S>, signal?: AbortSignal): Promise<S> {
  let latest = first;
  for await (const status of watchJob(jobId, first, source, signal)) {
    latest = status;
    if (status !== first) break;
  }
  return latest;
}
