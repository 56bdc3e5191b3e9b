import type { Context } from 'hono';
import { activeJobStatusSchema, nasShareCreateSchema, type JobKind } from '@dms/core';
import { z } from 'zod';
import type { AppEnv } from '../http/env.js';
import { readJsonBody } from '../http/json-body.js';
import { integerParameter, waitBounds } from '../contracts/integer-parameter.js';
import { jobCompletedExample, jobQueuedExample, nasShareCreateExample } from '../contracts/examples.js';
import { defineOperation, type Handle, type SuccessResponse } from './operation.js';
import { jobResponse, startedJob } from './job-answers.js';

const jobQuerySchema = z.object({
  job_id: z.string().describe('the job_id returned by the PUT'),
  wait: integerParameter(waitBounds, `long-poll up to this many seconds (${waitBounds.join('–')}) until the job changes in any way, progress included`),
});

const followed: SuccessResponse = {
  status: 200,
  description: 'finished job: completed or failed',
  schema: activeJobStatusSchema,
  example: jobCompletedExample,
};
/** Every answer that starts a job says where the job is (docs/api.md#job-history). */
const accepted: SuccessResponse = {
  status: 202,
  description: 'queued job',
  schema: activeJobStatusSchema,
  example: jobQueuedExample,
  headers: { Location: 'the job: `/api/v2/jobs/{job_id}`, to follow with GET (scope `jobs / show`)' },
};
const running: SuccessResponse = {
  status: 202,
  description: 'job still queued or working',
  schema: activeJobStatusSchema,
  example: { ...jobQueuedExample, status: 'working', progress: 2 },
};

const following = `Answers 202 while the job is queued or working and 200 once it has completed or failed; a failed job says why in \`message\` and \`steps\`. With \`wait=N\` (${waitBounds.join('–')}) the answer waits up to N seconds for any change of the job, progress included, as \`GET /jobs/{job_id}\` does. A job started elsewhere is 404.`;

/** Said by every operation that queues a job: each checks the setting before it queues (finding 20.4). */
const allowedHostRule =
  'A NAS whose host is outside `share_test_allowed_hosts` (see the settings) is 422 on `host`; a queued job whose NAS leaves the list before it runs fails, saying so.';

const shareRef = (c: Context<AppEnv>) => c.req.param('nas_share_id')!;
/** Jobs of a saved share are addressed by its id or name among all shares. */
const allShares = { kind: 'all' } as const;

/** GET …/test?job_id=&wait= of a saved share's test or scan; the core checks both parameters. */
const showShareJob =
  (kind: JobKind): Handle =>
  async (c, core) =>
    jobResponse(
      c,
      await core.jobs.status(c.get('principal'), { jobId: c.req.query('job_id'), kind, scope: allShares, shareRef: shareRef(c) }, c.req.query('wait')),
    );

/** Test (scan) of a saved share, then following the job. */
const savedShareJobs = {
  test: {
    start: {
      operationId: 'testNasShare',
      sdkSample: `const job = await dms.nasShares.retest(7);
const finished = await job.wait();`,
      handle: async (c, core) => startedJob(c, await core.jobs.testSaved(c.get('principal'), allShares, shareRef(c))),
    },
    follow: {
      operationId: 'showNasShareTest',
      sdkSample: `const job = await dms.nasShares.followRetest(7, '0b6f3c1e-5d1a-4a55-9c1e-2f4b8d7a9e10');
const finished = await job.wait({ timeoutMs: 60_000 });`,
      handle: showShareJob('share_test'),
    },
  },
  scan: {
    start: {
      operationId: 'scanNasShare',
      sdkSample: `const job = await dms.nasShares.scan(7);
const { file_count, file_size_sum } = await job.wait();`,
      handle: async (c, core) => startedJob(c, await core.jobs.scan(c.get('principal'), allShares, shareRef(c))),
    },
    follow: {
      operationId: 'showNasShareScan',
      sdkSample: `const job = await dms.nasShares.followScan(7, '0b6f3c1e-5d1a-4a55-9c1e-2f4b8d7a9e10');
console.log(job.status.progress, job.status.total);`,
      handle: showShareJob('share_scan'),
    },
  },
} as const satisfies Record<'test' | 'scan', Record<'start' | 'follow', { operationId: string; sdkSample: string; handle: Handle }>>;

function savedShareJobOperations<Kind extends 'test' | 'scan'>(kind: Kind) {
  const path = `/nas_shares/:nas_share_id/${kind}`;
  const { start, follow } = savedShareJobs[kind];
  return [
    defineOperation({
      ...start,
      method: 'put',
      path,
      tag: 'nas_shares',
      summary: kind === 'test' ? 'Re-test a saved share' : 'Scan a saved share for file_count and file_size_sum',
      description:
        kind === 'test'
          ? `Starts a test of the saved share with its stored credentials and answers the queued job; follow it with GET on the same path or at its \`Location\`. ${allowedHostRule}`
          : `Starts a walk of the share that stores \`file_count\` and \`file_size_sum\` on it when it completes; follow it with GET on the same path or at its \`Location\` (\`/api/v2/jobs/{job_id}\`, which also shows the counts so far while it works). ${allowedHostRule}`,
      scope: { controller: 'nas_shares', action: kind },
      success: accepted,
      // The only body-less operation with a 422: the host rule above.
      errors: [422],
    }),
    defineOperation({
      ...follow,
      method: 'get',
      path,
      tag: 'nas_shares',
      summary: `Follow a ${kind} job of a saved share`,
      description: following,
      scope: { controller: 'nas_shares', action: kind },
      query: jobQuerySchema,
      success: followed,
      otherSuccess: [running],
    }),
  ];
}

/** Testing a share before it is saved (under its NAS), then test and scan of a saved share: each starts a job and follows it. */
export const shareJobOperations = [
  defineOperation({
    operationId: 'testUnsavedNasShare',
    sdkSample: `const job = await dms.nasShares.test('nas1', {
  name: 'projects',
  path: 'projects/2024',
  username: 'backup',
  password: 's3cret',
});
const finished = await job.wait({
  onProgress: (status) => console.log(\`\${status.progress}/\${status.total}\`),
});`,
    handle: async (c, core) => startedJob(c, await core.jobs.testUnsaved(c.get('principal'), c.req.param('nas_id')!, await readJsonBody(c))),
    method: 'put',
    path: '/nas/:nas_id/nas_shares/-/test',
    tag: 'nas_shares',
    summary: 'Test an unsaved share (really connects to it)',
    description: `Validates the body as a share (422 if invalid) and starts a job that resolves the host, connects, authenticates, opens the path and lists it; \`total\` is the number of steps. Follow it with GET on the same path and its \`job_id\`, or at its \`Location\` (\`/api/v2/jobs/{job_id}\`). ${allowedHostRule}`,
    scope: { controller: 'nas_shares', action: 'test' },
    body: nasShareCreateSchema,
    bodyExample: nasShareCreateExample,
    success: accepted,
  }),
  defineOperation({
    operationId: 'showUnsavedNasShareTest',
    sdkSample: `const job = await dms.nasShares.followTest('nas1', '0b6f3c1e-5d1a-4a55-9c1e-2f4b8d7a9e10');
console.log(job.status.status, job.status.steps);`,
    handle: async (c, core) =>
      jobResponse(c, await core.jobs.status(c.get('principal'), { jobId: c.req.query('job_id'), nasRef: c.req.param('nas_id')! }, c.req.query('wait'))),
    method: 'get',
    path: '/nas/:nas_id/nas_shares/-/test',
    tag: 'nas_shares',
    summary: 'Follow a share test job',
    description: following,
    scope: { controller: 'nas_shares', action: 'test' },
    query: jobQuerySchema,
    success: followed,
    otherSuccess: [running],
  }),
  ...savedShareJobOperations('test'),
  ...savedShareJobOperations('scan'),
];
