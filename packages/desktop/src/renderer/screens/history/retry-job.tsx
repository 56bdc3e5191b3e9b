import { useState } from 'react';
import { api, describeError } from '../../trpc-client.js';
import { jobKindLabels } from '../../labels/storage-labels.js';
import type { NamedJob } from '../../ui/job-names.js';

/**
 * Retry for a failed test or scan of a saved share: the same kind of job on the same share,
 * started anew (under the job bounds, as any start); the list then shows the new one.
 */
export function RetryJob({ job, onStarted }: { job: NamedJob; onStarted: () => void }) {
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const shareId = job.nas_share_id;
  if (job.status !== 'failed' || shareId === null) return null;
  const what = jobKindLabels[job.kind].toLowerCase();
  const retry = async () => {
    setState({ busy: true, error: null });
    try {
      await (job.kind === 'share_test' ? api.shares.test.mutate({ share: shareId }) : api.shares.scan.mutate({ share: shareId }));
      setState({ busy: false, error: null });
      onStarted();
    } catch (caught) {
      setState({ busy: false, error: describeError(caught).message });
    }
  };
  return (
    <p className="retry-job">
      <button type="button" disabled={state.busy} onClick={() => void retry()} aria-label={`Retry the ${what} of ${job.share_name ?? `share #${shareId}`}`}>
        Retry
      </button>
      {state.error && (
        <span role="alert" className="error">
          {' '}
          Not started: {state.error}
        </span>
      )}
    </p>
  );
}
