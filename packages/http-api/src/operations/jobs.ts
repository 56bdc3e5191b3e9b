import { jobCollectionSchema, jobListSpec, jobSchema } from '@dms/core';
import { z } from 'zod';
import { respondJson } from '../http/respond.js';
import { rawQuery } from '../http/raw-query.js';
import { listQueryParameters } from '../contracts/list-query-parameters.js';
import { integerParameter, waitBounds } from '../contracts/integer-parameter.js';
import { collectionExample, jobExample, jobWorkingExample } from '../contracts/examples.js';
import { defineOperation } from './operation.js';
import { jobResponse } from './job-answers.js';
import { countHeader, countHeaderDescription, withCountHeader } from './list-count-header.js';

/** Who reads which jobs (the core's rule), said on both operations. */
const visibility =
  'A user sees every job; an API key that holds `nas_shares / show` sees every job, as it sees every share; any other key sees only the jobs started within its own key tree: by the user it belongs to or by any of that user’s keys (a key made by the CLI or the console: by itself alone).';

/** Says whether GET /jobs listed every job or only the credential's own (docs/decisions/140-jobs-scope-header.md). */
export const jobsScopeHeader = 'Dms-Jobs-Scope';

/** GET /jobs and GET /jobs/{job_id} (docs/api.md#job-history): every job, wherever it was started; the core decides which the principal sees. */
export const jobOperations = [
  defineOperation({
    operationId: 'listJobs',
    sdkSample: `// The failed scans of the last day, newest first:
const { count, jobs } = await dms.jobs.list({
  filter: { kind: eq('share_scan'), status: eq('failed'), created_at: gte('2025-01-14T09:00:00Z') },
});`,
    handle: async (c, core) => {
      const principal = c.get('principal');
      const { body, headers } = withCountHeader(await core.jobs.list(principal, rawQuery(c)));
      return respondJson(c, body, 200, { ...headers, [jobsScopeHeader]: core.jobs.listScope(principal) });
    },
    method: 'get',
    path: '/jobs',
    tag: 'jobs',
    summary: 'List jobs',
    description: `One page of jobs and \`count\`, the number of matches before paging (exact up to 10,000 past the page, then a lower bound: see \`${countHeader}\`), newest first (\`created_at\` descending) unless \`sort_by\` says otherwise. Takes \`limit\`/\`offset\` or \`page\`/\`per_page\`, \`sort_by\` and filters (see *Lists* in the introduction) on \`id\`, \`kind\` (\`share_test\`, \`share_scan\`), \`status\`, \`nas_share_id\`, \`nas_id\`, \`requester\` (the user's or key's name, or \`scheduler\`), \`created_at\` and \`finished_at\` (ISO 8601 UTC, with the compare operators: \`created_at=>=2025-01-15T00:00:00Z\`). ${visibility} Finished jobs are kept \`job_retention_days\` (see the settings).`,
    scope: { controller: 'jobs', action: 'index' },
    query: listQueryParameters(jobListSpec),
    success: {
      status: 200,
      description: 'job collection',
      schema: jobCollectionSchema,
      example: collectionExample('jobs', jobExample),
      headers: {
        [jobsScopeHeader]:
          '`all`: the list (and `count`) covers every job; `own`: only the jobs of this key’s own key tree, as the key lacks `nas_shares / show`',
        [countHeader]: countHeaderDescription,
      },
    },
  }),
  defineOperation({
    operationId: 'showJob',
    sdkSample: `const job = await dms.jobs.get('0b6f3c1e-5d1a-4a55-9c1e-2f4b8d7a9e10');
// or until it has finished, seeing its progress:
const finished = await dms.jobs.follow(job.job_id, {
  onProgress: (job) => console.log(job.status, job.progress, job.file_count),
});`,
    handle: async (c, core) => jobResponse(c, await core.jobs.show(c.get('principal'), c.req.param('job_id')!, c.req.query('wait'))),
    method: 'get',
    path: '/jobs/:job_id',
    tag: 'jobs',
    summary: 'Show a job',
    description: `One job: the fields of \`active_job_status\`, its \`kind\`, the share and NAS it ran on, its \`requester\`, when it was created, started and finished, its \`message\` and \`steps\`, and for a scan \`file_count\` and \`file_size_sum\` (the counts so far while it works). Answers 202 while the job is queued or working and 200 once it has completed or failed, as the GET of a share test does. With \`wait=N\` (${waitBounds.join('–')}) the answer waits up to N seconds for any change of the job, progress included, not only its status. ${visibility} A job the credential may not see is 404, as one that does not exist.`,
    scope: { controller: 'jobs', action: 'show' },
    query: z.object({
      wait: integerParameter(waitBounds, `long-poll up to this many seconds (${waitBounds.join('–')}) until the job changes in any way, progress included`),
    }),
    success: { status: 200, description: 'finished job: completed or failed', schema: jobSchema, example: jobExample },
    otherSuccess: [{ status: 202, description: 'job still queued or working', schema: jobSchema, example: jobWorkingExample }],
  }),
];
