import type { Outputs } from '../trpc-client.js';

/** A job as the history and the overview show it: the core's job with its share's and NAS's names. */
export type NamedJob = Outputs['jobs']['list']['jobs'][number];

type JobPlace = Pick<NamedJob, 'nas_share_id' | 'share_name' | 'nas_id' | 'nas_name'>;

/** The share a job ran on, by name; a test of an unsaved share has none, a deleted share keeps its id. */
export function shareName(job: JobPlace): string {
  if (job.nas_share_id === null) return 'unsaved share';
  return job.share_name ?? `deleted share #${job.nas_share_id}`;
}

/** The NAS a job ran on, by name; a deleted NAS keeps its id. */
export function nasName(job: JobPlace): string {
  if (job.nas_id === null) return '';
  return job.nas_name ?? `deleted NAS #${job.nas_id}`;
}

/** "projects on filer": what a job ran on, in one phrase. */
export function jobSubject(job: JobPlace): string {
  const nas = job.nas_id === null ? '' : ` on ${nasName(job)}`;
  if (job.nas_share_id !== null && job.share_name === null) return shareName(job);
  return `${shareName(job)}${nas}`;
}
