import { isJobFinished } from '@dms/core';
import { progressText } from '../../ui/job-progress.js';
import { jobKindLabels } from '../../labels/storage-labels.js';
import { jobSubject, type NamedJob } from '../../ui/job-names.js';

/**
 * How far a job got: a bar while it runs (indeterminate while it waits, or while a scan does not
 * know its total), then in words, as the Shares screen's panel says it.
 */
export function JobProgressCell({ job }: { job: NamedJob }) {
  const text = progressText(job.kind, job);
  if (isJobFinished(job)) return <span>{text}</span>;
  const known = job.status === 'working' && job.total > 0;
  const max = Math.max(job.total, 1);
  return (
    <span className="history-progress">
      <progress
        aria-label={`Progress of the ${jobKindLabels[job.kind].toLowerCase()} of ${jobSubject(job)}`}
        max={max}
        {...(known ? { value: Math.min(job.progress, max) } : {})}
      />
      <span className="hint">{text}</span>
    </span>
  );
}
