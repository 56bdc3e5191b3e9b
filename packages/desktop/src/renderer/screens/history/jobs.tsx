import { useCallback, useState } from 'react';
import { api } from '../../trpc-client.js';
import { useLoad } from '../../ui/use-load.js';
import { EmptyState } from '../../ui/empty-state.js';
import { ErrorAlert } from '../../ui/error-alert.js';
import { Pager } from '../../ui/pager.js';
import { usePageInRange } from '../../ui/use-page-in-range.js';
import { sortParam, type SortOrder } from '../../ui/sortable-header.js';
import { ListCount, useFilteredPages } from '../../ui/list-screen.js';
import { isJobFiltered, JobsFilter, jobFilterParams, noJobFilter, type JobFilter } from './jobs-filter.js';
import { JobTable } from './job-table.js';
import { useFollowedJobs } from './use-followed-jobs.js';
import { hashParams } from '../../shell/hash-route.js';
import './history.css';

/**
 * Every test and scan, by anyone, newest first: filtered by status and kind, paged through the
 * core's list contract; a running job's row moves live (jobs.follow), and a row opens the job's
 * steps and message. `#/jobs?job=ID` (the overview's job rows) shows that one job, its detail open.
 */
export function JobsScreen() {
  const { filter, setFilter, page, setPage, perPage, setPerPage, pageQuery } = useFilteredPages<JobFilter>(noJobFilter);
  const [order, setOrderState] = useState<SortOrder>({ field: 'created_at', direction: 'desc' });
  // The job the address names, read once: the console opens the screen anew when the address changes.
  const [linkedJob] = useState(() => hashParams().get('job'));
  const [openId, setOpenId] = useState<string | null>(linkedJob);

  // A new order starts again at page 1, as a new filter or page size does.
  const setOrder = useCallback((next: SortOrder) => (setOrderState(next), setPage(1)), [setPage]);

  const query = {
    ...pageQuery,
    sort_by: sortParam(order),
    ...jobFilterParams(filter),
    ...(linkedJob ? { id: `=${linkedJob}` } : {}),
  };
  const jobs = useLoad(() => api.jobs.list.query(query), JSON.stringify(query));
  const live = useFollowedJobs(jobs.data?.jobs, jobs.reload);
  usePageInRange(page, jobs.data?.count, perPage, setPage);

  const count = jobs.data?.count ?? 0;
  const filtered = isJobFiltered(filter) || linkedJob !== null;
  const rows = (jobs.data?.jobs ?? []).map((job) => ({ ...job, ...live.get(job.job_id) }));
  return (
    <>
      <p className="hint">The tests and scans of every share, whoever started them. Finished jobs are kept for the job retention days set in the settings.</p>
      <ErrorAlert message={jobs.error} />
      {linkedJob && (
        <p className="notice" role="status">
          {jobs.data?.count === 0 ? 'The job this link names is no longer kept.' : 'Showing the job you opened.'} <a href="#/jobs">Show every job</a>
        </p>
      )}
      <JobsFilter value={filter} onChange={setFilter} />
      {jobs.data && count === 0 && !filtered && (
        <EmptyState title="No jobs yet">
          Test or scan a share on the <a href="#/shares">Shares screen</a>; its job appears here.
        </EmptyState>
      )}
      {jobs.data && count === 0 && filtered && <EmptyState title="No job matches the filter">Change the filter, or clear it to see every job.</EmptyState>}
      {jobs.data && count > 0 && (
        <>
          <ListCount count={count} atLeast={jobs.data.countIsLowerBound} noun="job" filtered={filtered} onRefresh={jobs.reload} />
          <JobTable
            jobs={rows}
            order={order}
            onSort={setOrder}
            openId={openId}
            onToggle={(jobId) => setOpenId((current) => (current === jobId ? null : jobId))}
            onRetried={jobs.reload}
          />
          <Pager label="Jobs" page={page} perPage={perPage} count={count} atLeast={jobs.data.countIsLowerBound} onPage={setPage} onPerPage={setPerPage} />
        </>
      )}
    </>
  );
}
