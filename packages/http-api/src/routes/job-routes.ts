import { respondJson } from '../http/respond.js';
import type { Context } from 'hono';
import { isJobFinished, type ActiveJobStatus, type JobKind } from '@dms/core';
import { type Core } from '@dms/core/runtime';
import type { AppEnv } from '../http/env.js';
import type { OperationHandlers } from './route-table.js';
import { readJsonBody } from '../http/json-body.js';
import { rawQuery } from '../http/raw-query.js';
import { apiBasePath } from '../contracts/openapi-document.js';

/** 202 while a job is queued or working, 200 once it completed or failed. */
function jobResponse(c: Context<AppEnv>, job: ActiveJobStatus): Response {
  return respondJson(c, job, isJobFinished(job) ? 200 : 202);
}

/** The 202 of a request that started a job, with where the job is followed (docs/api.md#job-history). */
function startedJob(c: Context<AppEnv>, job: ActiveJobStatus): Response {
  return respondJson(c, job, 202, { Location: `${apiBasePath}/jobs/${encodeURIComponent(job.job_id)}` });
}

const shareRef = (c: Context<AppEnv>) => c.req.param('nas_share_id')!;
/** Jobs of a saved share are addressed by its id or name among all shares. */
const allShares = { kind: 'all' } as const;

/** GET …/test?job_id=&wait= of a saved share's test or scan; the core checks both parameters. */
const showShareJob = (core: Core, kind: JobKind) => async (c: Context<AppEnv>) =>
  jobResponse(
    c,
    await core.jobs.status(c.get('principal'), { jobId: c.req.query('job_id'), kind, scope: allShares, shareRef: shareRef(c) }, c.req.query('wait')),
  );

/** Handlers of contracts/share-job-contracts.ts. */
export function shareJobHandlers(core: Core) {
  return {
    testUnsavedNasShare: async (c) => startedJob(c, await core.jobs.testUnsaved(c.get('principal'), c.req.param('nas_id')!, await readJsonBody(c))),
    showUnsavedNasShareTest: async (c) =>
      jobResponse(c, await core.jobs.status(c.get('principal'), { jobId: c.req.query('job_id'), nasRef: c.req.param('nas_id')! }, c.req.query('wait'))),
    testNasShare: async (c) => startedJob(c, await core.jobs.testSaved(c.get('principal'), allShares, shareRef(c))),
    showNasShareTest: showShareJob(core, 'share_test'),
    scanNasShare: async (c) => startedJob(c, await core.jobs.scan(c.get('principal'), allShares, shareRef(c))),
    showNasShareScan: showShareJob(core, 'share_scan'),
  } satisfies Partial<OperationHandlers>;
}

/** Handlers of contracts/job-contracts.ts: the core decides which jobs the principal sees. */
export function jobHandlers(core: Core) {
  return {
    listJobs: async (c) => respondJson(c, await core.jobs.list(c.get('principal'), rawQuery(c))),
    showJob: async (c) => jobResponse(c, await core.jobs.show(c.get('principal'), c.req.param('job_id')!, c.req.query('wait'))),
  } satisfies Partial<OperationHandlers>;
}
