import { z } from 'zod';
import { jobStatuses } from './job-status.js';

export { unfinishedJobStatuses, finishedJobStatuses, jobStatuses, isJobFinished, type JobStatus, type FinishedJobStatus } from './job-status.js';

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

/** active_job_status of the spec plus `message`, `steps` and, for scans, the counts. */
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
  })
  .meta({ id: 'active_job_status' });
export type ActiveJobStatus = z.output<typeof activeJobStatusSchema>;
