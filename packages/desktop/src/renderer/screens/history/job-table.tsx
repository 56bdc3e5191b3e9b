import { Fragment } from 'react';
import { shortTime } from '../../ui/format.js';
import { SortableHeader, type SortOrder } from '../../ui/sortable-header.js';
import { jobKindLabels, jobStatusLabels } from '../storage/labels.js';
import { jobSubject, nasName, shareName, type NamedJob } from './job-names.js';
import { JobProgressCell } from './job-progress-cell.js';
import { JobDetail } from './job-detail.js';

const columns = 8;

interface JobTableProps {
  jobs: NamedJob[];
  order: SortOrder;
  onSort: (order: SortOrder) => void;
  /** The job whose detail is open under its row, if any. */
  openId: string | null;
  onToggle: (jobId: string) => void;
}

/**
 * One page of the job history. A row's first cell is a button that opens the job's detail in a
 * row of its own under it (a click anywhere on the row does the same); Enter or Space on the
 * button, for the keyboard.
 */
export function JobTable({ jobs, order, onSort, openId, onToggle }: JobTableProps) {
  return (
    <table aria-label="Jobs" className="history-table">
      <thead>
        <tr>
          <th scope="col">Kind</th>
          <th scope="col">Share</th>
          <th scope="col">NAS</th>
          <th scope="col">Requester</th>
          <th scope="col">Status</th>
          <th scope="col">Progress</th>
          <SortableHeader field="created_at" label="Created" order={order} onSort={onSort} />
          <SortableHeader field="finished_at" label="Finished" order={order} onSort={onSort} />
        </tr>
      </thead>
      <tbody>
        {jobs.map((job) => {
          const open = openId === job.job_id;
          const detailId = `job-detail-${job.job_id}`;
          return (
            <Fragment key={job.job_id}>
              <tr className="history-row" data-open={open ? 'true' : undefined} onClick={() => onToggle(job.job_id)}>
                <td>
                  <button
                    type="button"
                    className="row-toggle"
                    aria-expanded={open}
                    aria-controls={open ? detailId : undefined}
                    aria-label={`${jobKindLabels[job.kind]} of ${jobSubject(job)}, ${shortTime(job.created_at)}: details`}
                  >
                    <span className="toggle-mark" aria-hidden="true">
                      {open ? '▾' : '▸'}
                    </span>{' '}
                    {jobKindLabels[job.kind]}
                  </button>
                </td>
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
              </tr>
              {open && (
                <tr className="job-row history-detail-row">
                  <td colSpan={columns}>
                    <JobDetail row={job} id={detailId} />
                  </td>
                </tr>
              )}
            </Fragment>
          );
        })}
      </tbody>
    </table>
  );
}
