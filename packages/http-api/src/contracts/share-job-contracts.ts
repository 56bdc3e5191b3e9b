import { activeJobStatusSchema, nasShareCreateSchema } from '@dms/core';
import { z } from 'zod';
import { integerParameter, waitBounds } from './integer-parameter.js';
import { defineContract, type RouteContract, type SuccessResponse } from './route-contract.js';
import { jobCompletedExample, jobQueuedExample, nasShareCreateExample } from './examples.js';

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

function savedShareJobContracts(kind: 'test' | 'scan'): RouteContract[] {
  const path = `/nas_shares/:nas_share_id/${kind}`;
  return [
    defineContract({
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
    defineContract({
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

/** Spec endpoints 3 and 4, plus test and scan of a saved share. */
export const shareJobContracts: readonly RouteContract[] = [
  defineContract({
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
  defineContract({
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
  ...savedShareJobContracts('test'),
  ...savedShareJobContracts('scan'),
];
