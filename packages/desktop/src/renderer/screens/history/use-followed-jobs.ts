import { useEffect, useRef, useState } from 'react';
import { isJobFinished, type Job } from '@dms/core';
import { api } from '../../trpc-client.js';

/**
 * Follows each unfinished job of `jobs` through the jobs.follow subscription while it is on the
 * screen: answers the latest state of each job followed, by id. `onFinished` runs once for a job
 * that ends while followed (the list then reloads: its filter or order may no longer hold).
 * A job that leaves the list stops being followed, and every subscription ends with the screen.
 */
export function useFollowedJobs(jobs: readonly Job[] | undefined, onFinished: (job: Job) => void): ReadonlyMap<string, Job> {
  const [live, setLive] = useState<ReadonlyMap<string, Job>>(new Map());
  const subscriptions = useRef(new Map<string, { unsubscribe(): void }>());
  const finished = useRef(onFinished);
  finished.current = onFinished;
  const unfinished = (jobs ?? []).filter((job) => !isJobFinished(job)).map((job) => job.job_id);
  const key = unfinished.join(' ');

  useEffect(() => {
    const open = subscriptions.current;
    const wanted = new Set(key ? key.split(' ') : []);
    for (const [jobId, subscription] of open) {
      if (wanted.has(jobId)) continue;
      subscription.unsubscribe();
      open.delete(jobId);
    }
    for (const jobId of wanted) {
      if (open.has(jobId)) continue;
      let ended = false;
      const subscription = api.jobs.follow.subscribe(
        { jobId },
        {
          onData: (job) => {
            setLive((all) => new Map(all).set(job.job_id, job));
            if (isJobFinished(job) && !ended) {
              ended = true;
              finished.current(job);
            }
          },
          // The row keeps its last state; the list's next load shows where the job got to.
          onError: () => open.delete(jobId),
          onComplete: () => open.delete(jobId),
        },
      );
      open.set(jobId, subscription);
    }
  }, [key]);

  useEffect(() => {
    const open = subscriptions.current;
    return () => {
      for (const subscription of open.values()) subscription.unsubscribe();
      open.clear();
    };
  }, []);

  return live;
}
