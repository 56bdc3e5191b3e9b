import { respondJson } from '../http/respond.js';
import type { Context } from 'hono';
import { z } from 'zod';
import { activeJobStatusSchema, nasShareCreateSchema, type ActiveJobStatus, type Core, type JobQuery } from '@dms/core';
import type { AppEnv } from '../http/env.js';
import type { RouteTable } from '../http/route-table.js';
import { readJsonBody } from '../http/json-body.js';

const jobQuerySchema = z.object({
  job_id: z.string().describe('the job_id returned by the PUT'),
  wait: z.string().optional().describe('long-poll up to this many seconds (0–30) until the job changes state'),
});

function jobQuery(c: Context<AppEnv>): JobQuery {
  return { jobId: c.req.query('job_id'), wait: c.req.query('wait') };
}

/** 202 while a job is queued or working, 200 once it completed or failed. */
function jobResponse(c: Context<AppEnv>, job: ActiveJobStatus): Response {
  return respondJson(c, job, job.status === 'queued' || job.status === 'working' ? 202 : 200);
}

const followed = { status: 200 as const, description: 'finished job (202 while queued or working)', schema: activeJobStatusSchema };
const accepted = { status: 202 as const, description: 'queued job', schema: activeJobStatusSchema };

/** Spec endpoints 3 and 4, plus test and scan of a saved share. */
export function registerJobRoutes(routes: RouteTable, core: Core): void {
  routes.add({
    method: 'put',
    path: '/nas/:nas_id/nas_shares/-/test',
    tag: 'nas_shares',
    summary: 'Test an unsaved share (really connects to it)',
    scope: 'nas_shares / test',
    body: nasShareCreateSchema,
    success: accepted,
    errors: [404, 413, 422],
    handler: async (c) => respondJson(c, await core.jobs.testUnsaved(c.get('principal'), c.req.param('nas_id')!, await readJsonBody(c)), 202),
  });
  routes.add({
    method: 'get',
    path: '/nas/:nas_id/nas_shares/-/test',
    tag: 'nas_shares',
    summary: 'Follow a share test job',
    scope: 'nas_shares / test',
    query: jobQuerySchema,
    success: followed,
    errors: [404],
    handler: async (c) => jobResponse(c, await core.jobs.testStatusUnderNas(c.get('principal'), c.req.param('nas_id')!, jobQuery(c))),
  });
  for (const kind of ['test', 'scan'] as const) {
    const path = `/nas_shares/:nas_share_id/${kind}`;
    const jobKind = kind === 'test' ? 'share_test' : 'share_scan';
    routes.add({
      method: 'put',
      path,
      tag: 'nas_shares',
      summary: kind === 'test' ? 'Re-test a saved share' : 'Scan a saved share for file_count and file_size_sum',
      scope: `nas_shares / ${kind}`,
      success: accepted,
      errors: [404],
      handler: async (c) => {
        const scope = { kind: 'all' as const };
        const ref = c.req.param('nas_share_id')!;
        const job = kind === 'test' ? await core.jobs.testSaved(c.get('principal'), scope, ref) : await core.jobs.scan(c.get('principal'), scope, ref);
        return respondJson(c, job, 202);
      },
    });
    routes.add({
      method: 'get',
      path,
      tag: 'nas_shares',
      summary: `Follow a ${kind} job of a saved share`,
      scope: `nas_shares / ${kind}`,
      query: jobQuerySchema,
      success: followed,
      errors: [404],
      handler: async (c) => jobResponse(c, await core.jobs.statusForShare(c.get('principal'), jobKind, { kind: 'all' }, c.req.param('nas_share_id')!, jobQuery(c))),
    });
  }
}
