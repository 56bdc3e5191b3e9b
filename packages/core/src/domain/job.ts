import { z } from 'zod';
import { jobStatuses } from './job-status.js';
import type { ListSpec } from '../list-query/list-query.js';
import { listFields } from '../list-query/list-fields.js';
import { listQuerySchema } from '../list-query/list-query-schema.js';
import { collectionSchema } from '../list-query/collection-schema.js';

export {
  unfinishedJobStatuses,
  finishedJobStatuses,
  jobStatuses,
  isJobFinished,
  type JobStatus,
  type FinishedJobStatus,
  type UnfinishedJobStatus,
} from './job-status.js';

export const jobKinds = ['share_test', 'share_scan'] as const;
export type JobKind = (typeof jobKinds)[number];
/** A job's kind in the words of its log lines and events ("share test of 'x' failed: …"). */
export const jobKindWords: Record<JobKind, string> = { share_test: 'share test', share_scan: 'scan' };

export const stepOutcomeSchema = z.object({
  name: z.string(),
  outcome: z.enum(['ok', 'failed', 'skipped']),
  duration_ms: z.number(),
  message: z.string().optional(),
});
export type StepOutcome = z.output<typeof stepOutcomeSchema>;

/** active_job_status (docs/api.md#share-jobs) plus `message`, `steps` and, for scans, the counts. */
export const activeJobStatusSchema = z
  .object({
    job_id: z.string(),
    status: z.enum(jobStatuses),
    progress: z.number().int(),
    total: z.number().int(),
    message: z.string().nullable().optional(),
    steps: z.array(stepOutcomeSchema).optional(),
    file_count: z.number().int().optional(),
    file_size_sum: z.number().int().optional(),
    directories: z.number().int().optional().describe('a working scan: directories listed so far'),
    entries_per_second: z.number().int().optional().describe('a working scan: files and directories reached per second since it started'),
  })
  .meta({ id: 'active_job_status' });
export type ActiveJobStatus = z.output<typeof activeJobStatusSchema>;

/** Who started a job when no user or key did: a schedule's run. */
export const schedulerRequester = 'scheduler';

/**
 * A job as `GET /jobs` and `GET /jobs/{job_id}` show it (docs/api.md#job-history): active_job_status,
 * what it ran on, who asked for it and when it moved. A scan's `file_count` and
 * `file_size_sum` are its counts so far while it works, its result once it has completed.
 */
export const jobSchema = activeJobStatusSchema
  .extend({
    kind: z.enum(jobKinds),
    nas_share_id: z.number().int().nullable(),
    nas_id: z.number().int().nullable(),
    requester: z.string().describe('the user or API key name that started the job, or `scheduler`'),
    created_at: z.string(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
    message: z.string().nullable(),
    steps: z.array(stepOutcomeSchema),
  })
  .meta({ id: 'job' });
export type Job = z.output<typeof jobSchema>;
export const jobCollectionSchema = collectionSchema('jobs', jobSchema).meta({ id: 'job_collection' });

const { string, nullableInteger, timestamp, nullableTimestamp, oneOf } = listFields;

/** Newest first unless `sort_by` says otherwise; `id` breaks ties as on every list. */
export const jobListSpec: ListSpec = {
  fields: {
    id: string,
    kind: oneOf(jobKinds),
    status: oneOf(jobStatuses),
    nas_share_id: { ...nullableInteger, column: 'share_id' },
    nas_id: nullableInteger,
    requester: string,
    created_at: timestamp,
    started_at: nullableTimestamp,
    finished_at: nullableTimestamp,
  },
  filterable: ['id', 'kind', 'status', 'nas_share_id', 'nas_id', 'requester', 'created_at', 'finished_at'],
};
export const jobListQuerySchema = listQuerySchema(jobListSpec);
