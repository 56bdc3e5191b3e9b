import { shortTime } from '../../ui/format.js';
import { ExpandableRow } from '../../ui/expandable-row.js';
import type { SortOrder } from '../../ui/sortable-header.js';
import { ColumnHeads, type Column } from '../../ui/column-heads.js';
import { jobKindLabels, jobStatusLabels } from '../../labels/storage-labels.js';
import { jobSubject, nasName, shareName, type NamedJob } from '../../ui/job-names.js';
import { JobProgressCell } from './job-progress-cell.js';
import { JobDetail } from './job-detail.js';

const jobColumns: Column[] = [
  { label: 'Kind' },
  { label: 'Share' },
  { label: 'NAS' },
  { label: 'Requester' },
  { label: 'Status' },
  { label: 'Progress' },
  { label: 'Created', sortBy: 'created_at' },
  { label: 'Finished', sortBy: 'finished_at' },
];

interface JobTableProps {
  jobs: NamedJob[];
  order: SortOrder;
  onSort: (order: SortOrder) => void;
  /** The job whose detail is open under its row, if any. */
  openId: string | null;
  onToggle: (jobId: string) => void;
  /** A failed job was started again: the list reloads to show the new one. */
  onRetried: () => void;
}

/** One page of the job history; a row opens the job's steps and message under it. */
export function JobTable({ jobs, order, onSort, openId, onToggle, onRetried }: JobTableProps) {
  return (
    <table aria-label="Jobs" className="history-table">
      <ColumnHeads columns={jobColumns} order={order} onSort={onSort} />
      <tbody>
        {jobs.map((job) => (
          <ExpandableRow
            key={job.job_id}
            open={openId === job.job_id}
            detailId={`job-detail-${job.job_id}`}
            summary={`${jobKindLabels[job.kind]} of ${jobSubject(job)}, ${shortTime(job.created_at)}`}
            onToggle={() => onToggle(job.job_id)}
            toggleText={jobKindLabels[job.kind]}
            columns={jobColumns.length}
            detail={() => <JobDetail row={job} id={`job-detail-${job.job_id}`} onRetried={onRetried} />}
          >
            <td className="name">{shareName(job)}</td>
            <td className="name">{nasName(job)}</td>
            <td>{job.requester}</td>
            <td>
              <span className="status" data-status={job.status}>
                {jobStatusLabels[job.status]}
              </span>
            </td>
            <td>
              <JobProgressCell job={job} />
            </td>
            <td className="time">{shortTime(job.created_at)}</td>
            <td className="time">{shortTime(job.finished_at)}</td>
          </ExpandableRow>
        ))}
      </tbody>
    </table>
  );
}
