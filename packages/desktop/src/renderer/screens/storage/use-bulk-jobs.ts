import { useCallback, useEffect, useRef, useState } from 'react';
import type { JobKind } from '@dms/core';

interface QueuedJob {
  kind: JobKind;
  jobId: string;
}

type Follow = (shareId: number, kind: JobKind, started: { job_id: string }) => void;

/**
 * The jobs a bulk Test or Scan queued, kept by share until the share's row is on the page: then
 * the row follows its job to the end, as after its own Test (its health and counts follow when
 * the job ends). A bulk action over every matching share may queue more jobs than a page shows:
 * only the shown rows hold a subscription, and a row shown later picks its job up then.
 */
export function useBulkJobs(shown: ReadonlyArray<{ id: number }> | undefined, follow: Follow) {
  const waiting = useRef(new Map<number, QueuedJob>());
  // Bumped when jobs are queued, so rows already shown pick theirs up without a new page.
  const [queued, setQueued] = useState(0);

  const queue = useCallback((kind: JobKind, jobs: ReadonlyArray<{ shareId: number; jobId: string }>) => {
    for (const { shareId, jobId } of jobs) waiting.current.set(shareId, { kind, jobId });
    setQueued((count) => count + 1);
  }, []);

  useEffect(() => {
    for (const { id } of shown ?? []) {
      const job = waiting.current.get(id);
      if (!job) continue;
      waiting.current.delete(id);
      follow(id, job.kind, { job_id: job.jobId });
    }
  }, [shown, queued, follow]);

  return { queue };
}
