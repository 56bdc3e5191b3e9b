import type { Context } from 'hono';
import { isJobFinished, type ActiveJobStatus } from '@dms/core';
import type { AppEnv } from '../http/env.js';
import { respondJson } from '../http/respond.js';
import { apiBasePath } from '../contracts/api-base-path.js';

/** 202 while a job is queued or working, 200 once it completed or failed. */
export function jobResponse(c: Context<AppEnv>, job: ActiveJobStatus): Response {
  return respondJson(c, job, isJobFinished(job) ? 200 : 202);
}

/** The 202 of a request that started a job, with where the job is followed (docs/api.md#job-history). */
export function startedJob(c: Context<AppEnv>, job: ActiveJobStatus): Response {
  return respondJson(c, job, 202, { Location: `${apiBasePath}/jobs/${encodeURIComponent(job.job_id)}` });
}
