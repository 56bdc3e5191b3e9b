import './job-progress.css';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ActiveJobStatus, JobKind } from '@dms/core';
import { isJobFinished } from '@dms/core';
import { api, describeError } from '../trpc-client.js';
import { humanBytes, plural } from './format.js';
import { jobKindLabels, jobStatusLabels, stepLabel } from '../labels/storage-labels.js';

/** A job the screen started and follows: its latest state, or why it could not start or be followed. */
export interface TrackedJob {
  kind: JobKind;
  job?: ActiveJobStatus;
  error?: string;
}

const isFinished = (job: ActiveJobStatus | undefined) => job !== undefined && isJobFinished(job);

/**
 * Tests and scans of saved shares, one per share at a time: starts the job (or takes one a bulk
 * action started), then follows it through the jobs.progress subscription until it ends. `onFinished` runs once per job at its
 * end (a scan changes the share's counts, so the list reloads). Subscriptions end with the screen.
 */
export function useShareJobs(onFinished: (shareId: number, job: ActiveJobStatus) => void) {
  const [jobs, setJobs] = useState<Record<number, TrackedJob>>({});
  const subscriptions = useRef(new Map<number, { unsubscribe(): void }>());
  const finished = useRef(onFinished);
  finished.current = onFinished;

  useEffect(() => {
    const open = subscriptions.current;
    return () => {
      for (const subscription of open.values()) subscription.unsubscribe();
      open.clear();
    };
  }, []);

  /** Follows a job already started for a share (its own Test, or a bulk one) until it ends. */
  const follow = useCallback((shareId: number, kind: JobKind, started: { job_id: string; job?: ActiveJobStatus }) => {
    const put = (tracked: TrackedJob) => setJobs((all) => ({ ...all, [shareId]: tracked }));
    subscriptions.current.get(shareId)?.unsubscribe();
    put({ kind, ...(started.job ? { job: started.job } : {}) });
    let latest = started.job;
    let ended = false;
    const subscription = api.jobs.progress.subscribe(
      { jobId: started.job_id, share: shareId, kind },
      {
        onData: (job) => {
          latest = job;
          put({ kind, job });
          if (isFinished(job) && !ended) {
            ended = true;
            finished.current(shareId, job);
          }
        },
        onError: (error) => put({ kind, ...(latest ? { job: latest } : {}), error: `lost track of the job: ${describeError(error).message}` }),
        onComplete: () => subscriptions.current.delete(shareId),
      },
    );
    subscriptions.current.set(shareId, subscription);
  }, []);

  const start = useCallback(
    async (shareId: number, kind: JobKind) => {
      const put = (tracked: TrackedJob) => setJobs((all) => ({ ...all, [shareId]: tracked }));
      subscriptions.current.get(shareId)?.unsubscribe();
      subscriptions.current.delete(shareId);
      put({ kind });
      let started: ActiveJobStatus;
      try {
        started = kind === 'share_test' ? await api.shares.test.mutate({ share: shareId }) : await api.shares.scan.mutate({ share: shareId });
      } catch (caught) {
        put({ kind, error: describeError(caught).message });
        return;
      }
      follow(shareId, kind, { job_id: started.job_id, job: started });
    },
    [follow],
  );

  const dismiss = useCallback((shareId: number) => {
    subscriptions.current.get(shareId)?.unsubscribe();
    subscriptions.current.delete(shareId);
    setJobs((all) => Object.fromEntries(Object.entries(all).filter(([id]) => Number(id) !== shareId)));
  }, []);

  return { jobs, start, follow, dismiss };
}

/** How far a job got, in words: steps for a test, files counted so far for a scan. */
export function progressText(kind: JobKind, job: ActiveJobStatus): string {
  if (kind === 'share_scan') {
    if (job.status === 'completed') return `${plural(job.file_count ?? job.progress, 'file')}, ${humanBytes(job.file_size_sum ?? 0)}`;
    if (job.status === 'queued') return 'waiting to start';
    return `${plural(job.progress, 'file')} counted so far`;
  }
  return `${job.progress} of ${plural(job.total, 'step')}`;
}

/** A job's steps, each with its outcome, time and message (a failed step says why). */
export function JobSteps({ steps, label }: { steps: NonNullable<ActiveJobStatus['steps']>; label: string }) {
  if (steps.length === 0) return null;
  return (
    <ol className="job-steps" aria-label={label}>
      {steps.map((step, index) => (
        <li key={`${index}-${step.name}`} data-outcome={step.outcome}>
          <span className="step-name">{stepLabel(step.name)}</span> <span className="step-outcome">{step.outcome}</span>
          <span className="hint"> ({Math.round(step.duration_ms)} ms)</span>
          {step.message && <span className="step-message"> – {step.message}</span>}
        </li>
      ))}
    </ol>
  );
}

/**
 * A job's live state: a progress bar (indeterminate while a scan does not know its total yet),
 * its status, its message (a failure's reason is announced), and each step with its outcome.
 * A job the core refused to start (a host outside the allowed hosts, a full queue) never had a
 * state: its bar stands still at zero, the refusal is announced, and the panel can be closed.
 */
export function JobProgress({ tracked, subject, onDismiss }: { tracked: TrackedJob; subject: string; onDismiss?: () => void }) {
  const { kind, job, error } = tracked;
  const what = `${jobKindLabels[kind]} of ${subject}`;
  const done = isFinished(job);
  const refused = job === undefined && error !== undefined;
  // A bar with no value is indeterminate: a queued job, or a scan that does not know its total.
  const known = refused || (job !== undefined && (done || job.total > 0));
  const max = Math.max(job?.total ?? 0, 1);
  const failed = job?.status === 'failed';
  // A completed job fills the bar; a failed one stops where it failed.
  const value = job?.status === 'completed' ? max : Math.min(job?.progress ?? 0, max);
  let state = 'starting';
  if (job) state = jobStatusLabels[job.status];
  else if (refused) state = 'not started';
  return (
    <div className="job-panel" data-status={job?.status ?? (refused ? 'refused' : 'starting')} data-kind={kind}>
      <div className="job-head">
        <progress aria-label={what} max={max} {...(known ? { value } : {})} />
        <span role="status">
          <strong>{what}</strong>:{' '}
          <span className="status" data-status={job?.status ?? (refused ? 'failed' : undefined)}>
            {state}
          </span>
          {job && <span className="hint"> · {progressText(kind, job)}</span>}
        </span>
        {/* Closable once nothing more will come: the job ended, was refused, or could no longer be followed. */}
        {onDismiss && (done || error !== undefined) && (
          <button type="button" className="secondary small" onClick={onDismiss} aria-label={`Close ${what}`}>
            Close
          </button>
        )}
      </div>
      {/* A finished scan's message repeats its counts, shown above in words. */}
      {job?.message && !(kind === 'share_scan' && job.status === 'completed') && (
        <p className={failed ? 'error job-message' : 'job-message'} role={failed ? 'alert' : undefined}>
          {failed ? 'Failed: ' : ''}
          {job.message}
        </p>
      )}
      {error && (
        <p className="error job-message" role="alert">
          {refused ? 'Not started: ' : ''}
          {error}
        </p>
      )}
      {job?.steps && <JobSteps steps={job.steps} label={`Steps of the ${jobKindLabels[kind].toLowerCase()} of ${subject}`} />}
    </div>
  );
}
