import { api } from '../trpc-client.js';
import { useLoad } from '../ui/use-load.js';
import { EmptyState } from '../ui/empty-state.js';
import { shortTime } from '../ui/format.js';
import { RestServerStatus } from './system/rest-server-status.js';
import { ErrorAlert } from '../ui/error-alert.js';
import { jobKindLabels, jobStatusLabels } from '../labels/storage-labels.js';
import { jobSubject } from '../ui/job-names.js';
import { ShareHealthCounts } from './dashboard/share-health.js';
import { FirstSteps } from './dashboard/first-steps.js';
import { OpenAlerts } from './dashboard/open-alerts.js';
import { CapacitySection } from './dashboard/capacity.js';
import { ShareGrowth } from './dashboard/share-growth.js';
import { ShareSpace } from './dashboard/share-space.js';
import '../ui/admin.css';
import './dashboard/dashboard.css';
import { ColumnHeads } from '../ui/column-heads.js';

/**
 * The dashboard: counts, every share's health, the open alerts, capacity per NAS and pool, one
 * share's growth over its scans, the state of what this instance serves (SNMP agent, REST
 * server) and the user's own newest jobs.
 */
export function OverviewScreen() {
  const overview = useLoad(() => api.overview.show.query());
  const jobs = useLoad(() => api.overview.recentJobs.query({ limit: 10 }));
  const summary = overview.data;
  return (
    <>
      <ErrorAlert message={overview.error} />
      {summary && <FirstSteps nas={summary.counts.nas} shares={summary.counts.nas_shares} health={summary.share_health} />}
      {summary && (
        <ul className="cards" aria-label="Counts">
          <li>
            <a href="#/nas">
              <span className="count">{summary.counts.nas}</span> NAS
            </a>
          </li>
          <li>
            <a href="#/pools">
              <span className="count">{summary.counts.pools}</span> pools
            </a>
          </li>
          <li>
            <a href="#/shares">
              <span className="count">{summary.counts.nas_shares}</span> shares
            </a>
          </li>
          <li>
            <a href="#/traps">
              <span className="count">{summary.counts.snmp_traps}</span> trap targets
            </a>
          </li>
          <li>
            <span className="count">{summary.jobs_by_status.queued + summary.jobs_by_status.working}</span> jobs running or queued
          </li>
        </ul>
      )}
      <ShareHealthCounts counts={summary?.share_health} />
      <OpenAlerts />
      <CapacitySection />
      <ShareSpace />
      <ShareGrowth />
      <section aria-labelledby="services-heading">
        <h2 id="services-heading">Services</h2>
        <dl className="facts">
          <dt>SNMP agent</dt>
          <dd>{summary ? <span data-state={summary.snmp_agent.state}>{summary.snmp_agent.state}</span> : '…'}</dd>
          <RestServerStatus />
        </dl>
      </section>
      <section aria-labelledby="jobs-heading">
        <h2 id="jobs-heading">Your recent jobs</h2>
        {jobs.data?.length === 0 && <EmptyState title="No jobs yet">Test or scan a share on the Shares screen; its job appears here.</EmptyState>}
        {jobs.data && jobs.data.length > 0 && (
          <table aria-labelledby="jobs-heading">
            <ColumnHeads columns={[{ label: 'Job' }, { label: 'Share' }, { label: 'Status' }, { label: 'Message' }, { label: 'Started' }]} />
            <tbody>
              {jobs.data.map((job) => (
                <tr key={job.job_id}>
                  <td>
                    <a
                      href={`#/jobs?job=${encodeURIComponent(job.job_id)}`}
                      aria-label={`${jobKindLabels[job.kind]} of ${jobSubject(job)}, ${shortTime(job.created_at)}: open the job`}
                    >
                      {jobKindLabels[job.kind]}
                    </a>
                  </td>
                  <td>{jobSubject(job)}</td>
                  <td>
                    <span className="status" data-status={job.status}>
                      {jobStatusLabels[job.status]}
                    </span>
                  </td>
                  <td>{job.message ?? ''}</td>
                  <td>{shortTime(job.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <p className="hint">
          Everyone’s jobs, with filters and live progress, are on the <a href="#/jobs">Jobs screen</a>.
        </p>
      </section>
    </>
  );
}
