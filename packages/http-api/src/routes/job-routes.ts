import { respondJson } from '../http/respond.js';
import type { Context } from 'hono';
import type { ActiveJobStatus, Core, JobQuery } from '@dms/core';
import type { AppEnv } from '../http/env.js';
import type { OperationHandlers } from '../http/route-table.js';
import { readJsonBody } from '../http/json-body.js';

function jobQuery(c: Context<AppEnv>): JobQuery {
  return { jobId: c.req.query('job_id'), wait: c.req.query('wait') };
}

/** 202 while a job is queued or working, 200 once it completed or failed. */
function jobResponse(c: Context<AppEnv>, job: ActiveJobStatus): Response {
  return respondJson(c, job, job.status === 'queued' || job.status === 'working' ? 202 : 200);
}

const shareRef = (c: Context<AppEnv>) => c.req.param('nas_share_id')!;
/** Jobs of a saved share are addressed by its id or name among all shares. */
const allShares = { kind: 'all' } as const;

/** Handlers of contracts/share-job-contracts.ts. */
export function shareJobHandlers(core: Core) {
  return {
    testUnsavedNasShare: async (c) => respondJson(c, await core.jobs.testUnsaved(c.get('principal'), c.req.param('nas_id')!, await readJsonBody(c)), 202),
    showUnsavedNasShareTest: async (c) => jobResponse(c, await core.jobs.testStatusUnderNas(c.get('principal'), c.req.param('nas_id')!, jobQuery(c))),
    testNasShare: async (c) => respondJson(c, await core.jobs.testSaved(c.get('principal'), allShares, shareRef(c)), 202),
    showNasShareTest: async (c) => jobResponse(c, await core.jobs.statusForShare(c.get('principal'), 'share_test', allShares, shareRef(c), jobQuery(c))),
    scanNasShare: async (c) => respondJson(c, await core.jobs.scan(c.get('principal'), allShares, shareRef(c)), 202),
    showNasShareScan: async (c) => jobResponse(c, await core.jobs.statusForShare(c.get('principal'), 'share_scan', allShares, shareRef(c), jobQuery(c))),
  } satisfies Partial<OperationHandlers>;
}
