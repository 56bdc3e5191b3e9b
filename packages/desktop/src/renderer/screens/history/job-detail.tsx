import { api } from '../../trpc-client.js';
import { useLoad } from '../../ui/use-load.js';
import { ErrorAlert } from '../../ui/error-alert.js';
import { shortTime } from '../../ui/format.js';
import { jobKindLabels, jobStatusLabels } from '../../labels/storage-labels.js';
import { JobSteps, progressText } from '../../ui/job-progress.js';
import { jobSubject, nasName, shareName, type NamedJob } from '../../ui/job-names.js';
import { RetryJob } from './retry-job.js';

const statusRank = { queued: 0, working: 1, completed: 2, failed: 2 } as const;

/** The further on of two states of one job: a later status, or the same with more progress. */
function furtherOn<J extends NamedJob>(a: J, b: J): J {
  const byStatus = statusRank[a.status] - statusRank[b.status];
  if (byStatus !== 0) return byStatus > 0 ? a : b;
  return a.progress >= b.progress ? a : b;
}

/**
 * One job in full: where it ran, who started it, when it moved, its message and each step. Read
 * again when opened (the row may be older); a job still running shows its live state.
 */
export function JobDetail({ row, id, onRetried }: { row: NamedJob; id: string; onRetried: () => void }) {
  const fresh = useLoad(() => api.jobs.get.query({ jobId: row.job_id }), row.job_id);
  // The row follows a running job live; the read is newer than a row the list loaded a while ago.
  const job = fresh.data ? furtherOn(fresh.data, row) : row;
  const kind = jobKindLabels[job.kind];
  const failed = job.status === 'failed';
  return (
    <section className="history-detail" id={id} aria-label={`${kind} of ${jobSubject(job)}`}>
      <ErrorAlert message={fresh.error} />
      <dl className="facts">
        <dt>Status</dt>
        <dd>
          <span className="status" data-status={job.status}>
            {jobStatusLabels[job.status]}
          </span>
        </dd>
        <dt>Progress</dt>
        <dd>{progressText(job.kind, job)}</dd>
        <dt>Share</dt>
        <dd>{shareName(job)}</dd>
        <dt>NAS</dt>
        <dd>{nasName(job) || '–'}</dd>
        <dt>Requested by</dt>
        <dd>{job.requester}</dd>
        <dt>Created</dt>
        <dd>{shortTime(job.created_at)}</dd>
        <dt>Started</dt>
        <dd>{shortTime(job.started_at) || 'not yet'}</dd>
        <dt>Finished</dt>
        <dd>{shortTime(job.finished_at) || 'not yet'}</dd>
        <dt>Job id</dt>
        <dd>
          <code className="admin-code">{job.job_id}</code>
        </dd>
      </dl>
      {job.message && (
        <p className={failed ? 'error job-message' : 'job-message'}>
          {failed ? 'Failed: ' : ''}
          {job.message}
        </p>
      )}
      <RetryJob job={job} onStarted={onRetried} />
      {job.steps.length > 0 ? (
        <JobSteps steps={job.steps} label={`Steps of the ${kind.toLowerCase()} of ${jobSubject(job)}`} />
      ) : (
        <p className="hint">{job.kind === 'share_scan' ? 'A scan counts files; it has no steps.' : 'No steps have run yet.'}</p>
      )}
    </section>
  );
}
