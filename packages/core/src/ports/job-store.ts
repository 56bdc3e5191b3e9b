import type { Selectable } from 'kysely';
import type { FinishedJobStatus, JobKind, JobStatus, StepOutcome, UnfinishedJobStatus } from '../domain/job.js';
import type { JobTable } from '../tables/jobs.table.js';
import type { ListPage, ListQuery } from '../list-query/list-query.js';

/** A job as stored, its steps and result parsed. */
export interface JobRecord extends Omit<Selectable<JobTable>, 'steps' | 'result'> {
  steps: StepOutcome[];
  result: Record<string, number> | null;
}

export type JobInsert = Pick<JobRecord, 'id' | 'kind' | 'nas_id' | 'share_id' | 'total' | 'payload_enc' | 'created_at'> &
  Partial<Pick<JobRecord, 'requested_by' | 'requester' | 'schedule_id' | 'test_fingerprint'>>;

/** Which finished test of an unsaved share a new share may take as its own (docs/decisions/153-test-before-save.md). */
export interface TestToAdopt {
  nasId: number;
  fingerprint: string;
  /** The oldest `finished_at` taken. */
  finishedSince: string;
}

/** Most unfinished (queued or working) jobs allowed, for the job's requester and overall. */
export interface QueueBounds {
  perRequester: number;
  total: number;
}

export interface JobProgress {
  progress: number;
  total: number;
  steps: StepOutcome[];
  result?: Record<string, number> | null;
}

export interface JobOutcome extends JobProgress {
  status: FinishedJobStatus;
  message: string | null;
}

/**
 * Durable job queue. `claim` takes, in one atomic statement, the oldest queued job of the
 * requester with the fewest working jobs, so one requester's backlog cannot starve others'
 * (SQLite: UPDATE … WHERE id = (SELECT … LIMIT 1) RETURNING; PostgreSQL adds
 * FOR UPDATE SKIP LOCKED), so any number of workers and replicas can share it.
 */
export interface JobStore {
  /** Stores a queued job; with bounds, atomically, and resolves undefined when one is reached. */
  enqueue(job: JobInsert, bounds?: QueueBounds): Promise<JobRecord | undefined>;
  /** Unfinished (queued or working) jobs, of one requester or of all. */
  countUnfinished(requestedBy?: string): Promise<number>;
  /** Unfinished jobs started by a run of the schedule. */
  countUnfinishedOfSchedule(scheduleId: number): Promise<number>;
  get(id: string): Promise<JobRecord | undefined>;
  claim(workerId: string, now: string): Promise<JobRecord | undefined>;
  /** Saves progress and refreshes the heartbeat; ignored unless the job is working for this worker. */
  progress(id: string, workerId: string, progress: JobProgress, now: string): Promise<void>;
  /** Ends a job and erases its sealed payload. */
  finish(id: string, workerId: string, outcome: JobOutcome, now: string): Promise<JobRecord | undefined>;
  /**
   * `finish`, then `claim` for the same worker, atomically: a busy worker's next job costs no
   * round trip of its own (one statement on PostgreSQL). The claim's choice is made as of
   * before the finish: the finished job still counts as its requester's working one.
   */
  finishAndClaim(id: string, workerId: string, outcome: JobOutcome, now: string): Promise<JobRecord | undefined>;
  /**
   * Puts a job this worker holds back in the queue, as it was before its claim (no progress,
   * steps or heartbeat; its place in the queue kept): a graceful shutdown returns what it was
   * running, and the next start or another replica runs it. Nothing if the job is no longer
   * working for this worker.
   */
  requeue(id: string, workerId: string): Promise<JobRecord | undefined>;
  /** Fails every working job whose heartbeat is older than `staleBefore`; returns them. */
  failStale(staleBefore: string, message: string, now: string): Promise<JobRecord[]>;
  /** Deletes at most `limit` finished jobs that finished before `before`; resolves how many. */
  purgeFinished(before: string, limit: number): Promise<number>;
  /** A page of jobs (GET /jobs): filters and order of jobListSpec's columns. */
  list(query: ListQuery): Promise<ListPage<JobRecord>>;
  countByStatus(): Promise<Record<JobStatus, number>>;
  /** Queued and working jobs by kind (only the kinds and statuses that have some): read through the jobs_status_kind index, never the finished jobs. */
  countUnfinishedByKind(): Promise<Array<{ kind: JobKind; status: UnfinishedJobStatus; count: number }>>;
  /** Failed share tests finished at or after `since`, counted per share (shares with none left out). */
  failedTestsSince(since: string): Promise<Array<{ share_id: number; count: number }>>;
  /**
   * The newest finished test of an unsaved share that matches, given to the share `shareId`
   * (its `share_id` set, its fingerprint cleared: taken once); undefined when none matches.
   */
  adoptTest(test: TestToAdopt, shareId: number): Promise<JobRecord | undefined>;
}
