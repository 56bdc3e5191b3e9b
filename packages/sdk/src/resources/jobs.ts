import type { Call } from '../call.js';
import { followUntilFinished, type FollowJob, type WaitOptions } from '../jobs.js';
import type { CallOptions, FilterFieldOf, Job, JobCollection, SortFieldOf } from '../types.js';
import { listQuery, pages, type ListOptions } from './crud.js';

/** A job list filters on these and sorts on them and on `started_at` (GET /jobs; newest first by default). */
export type JobListOptions = ListOptions<FilterFieldOf<'listJobs'>, SortFieldOf<'listJobs'>>;

export interface JobsResource {
  /** One page of the jobs the credential may see, newest first unless `sortBy` says otherwise, and `count`. */
  list(options?: JobListOptions): Promise<JobCollection>;
  /** Every matching job, page after page (`limit` a request, 100 by default). */
  listAll(options?: JobListOptions): AsyncIterableIterator<Job>;
  /** One job: its status, where it ran, who started it, when, and a scan's counts. */
  get(jobId: string, options?: CallOptions): Promise<Job>;
  /**
   * Long-polls the job (`wait=30`) until it has finished; `onProgress` sees it first as it is
   * and then at each change, progress and a scan's counts so far included. Resolves with the
   * completed job, rejects with DmsJobFailedError when it failed.
   */
  follow(jobId: string, options?: WaitOptions<Job>): Promise<Job>;
}

/** GET /jobs/{job_id}, waiting on the server up to `waitSeconds` for any change of the job. */
export function readJob(call: Call): FollowJob<Job> {
  return (jobId, waitSeconds, signal) =>
    call('GET', '/jobs/{job_id}', { path: { job_id: jobId }, query: waitSeconds > 0 ? { wait: String(waitSeconds) } : {}, signal }) as Promise<Job>;
}

export function jobsResource(call: Call): JobsResource {
  const list = (options: ListOptions<string, string> = {}) =>
    call('GET', '/jobs', { query: listQuery(options), signal: options.signal }) as Promise<JobCollection>;
  const read = readJob(call);
  return {
    list,
    listAll: (options = {}) => pages<Job>(list, 'jobs', options),
    get: (jobId, options = {}) => read(jobId, 0, options.signal),
    follow: async (jobId, options = {}) => followUntilFinished(await read(jobId, 0, options.signal), read, options),
  };
}
