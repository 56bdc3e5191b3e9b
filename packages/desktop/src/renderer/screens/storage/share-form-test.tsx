import { useCallback, useEffect, useRef, useState } from 'react';
import type { ActiveJobStatus } from '@dms/core';
import { api, describeError, type DescribedError } from '../../trpc-client.js';
import type { TrackedJob } from '../../ui/job-progress.js';

/** What the form's values are tested as: unsaved under a NAS, or the saved share as stored. */
export type FormTestTarget = { nasId: number; body: Record<string, string> } | { shareId: number };

/**
 * The share form's Test: starts a test of the form's values (or of the saved share), then follows
 * it through jobs.progress as the table's job panel does, until it ends or the form goes away.
 * A field the core refuses comes back as `fieldError`, for the fields' messages.
 */
export function useFormTest() {
  const [tracked, setTracked] = useState<TrackedJob | null>(null);
  const [fieldError, setFieldError] = useState<DescribedError | null>(null);
  const subscription = useRef<{ unsubscribe(): void } | null>(null);

  const stop = () => {
    subscription.current?.unsubscribe();
    subscription.current = null;
  };
  useEffect(() => stop, []);

  const run = useCallback(async (target: FormTestTarget) => {
    stop();
    const kind = 'share_test' as const;
    setFieldError(null);
    setTracked({ kind });
    let started: ActiveJobStatus;
    try {
      started =
        'shareId' in target
          ? await api.shares.test.mutate({ share: target.shareId })
          : await api.shares.testUnsaved.mutate({ nas: target.nasId, body: target.body as { name: string; path: string } });
    } catch (caught) {
      const described = describeError(caught);
      if (Object.keys(described.fields).length > 0) setFieldError(described);
      setTracked({ kind, error: described.message });
      return;
    }
    setTracked({ kind, job: started });
    let latest = started;
    const jobTarget = 'shareId' in target ? { jobId: started.job_id, share: target.shareId, kind } : { jobId: started.job_id, nas: target.nasId };
    subscription.current = api.jobs.progress.subscribe(jobTarget, {
      onData: (job) => {
        latest = job;
        setTracked({ kind, job });
      },
      onError: (error) => setTracked({ kind, job: latest, error: `lost track of the job: ${describeError(error).message}` }),
    });
  }, []);

  const dismiss = useCallback(() => {
    stop();
    setTracked(null);
  }, []);

  return { tracked, fieldError, run, dismiss };
}
