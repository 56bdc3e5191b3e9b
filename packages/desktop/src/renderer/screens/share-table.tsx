import { useState } from 'react';
import type { ActiveJobStatus } from '@dms/core';
import { api, describeError } from '../trpc-client.js';

interface ShareRow {
  id: number;
  name: string;
  path: string;
  nas_id: number;
}

/** Each share with a Test button; a test's progress streams in through jobs.progress. */
export function ShareTable({ shares, nas }: { shares: ShareRow[]; nas: Array<{ id: number; name: string }> }) {
  const [jobs, setJobs] = useState<Record<number, ActiveJobStatus | { error: string }>>({});
  const runTest = async (share: ShareRow) => {
    try {
      const started = await api.shares.test.mutate({ share: share.id });
      setJobs((all) => ({ ...all, [share.id]: started }));
      api.jobs.progress.subscribe(
        { jobId: started.job_id, share: share.id, kind: 'share_test' },
        { onData: (job) => setJobs((all) => ({ ...all, [share.id]: job })), onError: (error) => setJobs((all) => ({ ...all, [share.id]: { error: describeError(error).message } })) },
      );
    } catch (caught) {
      setJobs((all) => ({ ...all, [share.id]: { error: describeError(caught).message } }));
    }
  };
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">NAS</th>
          <th scope="col">Path</th>
          <th scope="col">Test</th>
        </tr>
      </thead>
      <tbody>
        {shares.map((share) => {
          const job = jobs[share.id];
          return (
            <tr key={share.id}>
              <td>{share.name}</td>
              <td>{nas.find((item) => item.id === share.nas_id)?.name ?? share.nas_id}</td>
              <td>{share.path}</td>
              <td>
                <button type="button" onClick={() => void runTest(share)} aria-label={`Test share ${share.name}`}>
                  Test
                </button>{' '}
                {job && 'error' in job && <span className="error">{job.error}</span>}
                {job && 'status' in job && (
                  <span className="job" data-status={job.status}>
                    <progress max={job.total || 1} value={job.progress} aria-label={`Test of ${share.name}`} /> {job.status} ({job.progress}/{job.total})
                    {job.message ? ` – ${job.message}` : ''}
                  </span>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
