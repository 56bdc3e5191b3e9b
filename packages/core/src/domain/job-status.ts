/**
 * A job's statuses, and which of them are final: declared once here, read by the engine, the
 * storage adapters, the job service and both hosts. Pure (no zod, no Node built-ins), so the
 * desktop renderer bundles it from `@dms/core` (the package marks these modules side-effect free,
 * so the renderer's bundle takes only what it uses).
 */

/** A job waits in the queue, then runs: it has not finished yet. */
export const unfinishedJobStatuses = ['queued', 'working'] as const;
/** Where a job ends and stays. */
export const finishedJobStatuses = ['completed', 'failed'] as const;
export const jobStatuses = [...unfinishedJobStatuses, ...finishedJobStatuses] as const;
export type JobStatus = (typeof jobStatuses)[number];
export type FinishedJobStatus = (typeof finishedJobStatuses)[number];
export type UnfinishedJobStatus = (typeof unfinishedJobStatuses)[number];

/** Whether a job has ended (completed or failed): nothing about it changes any more. */
export function isJobFinished(job: { status: JobStatus }): boolean {
  return (finishedJobStatuses as readonly JobStatus[]).includes(job.status);
}
