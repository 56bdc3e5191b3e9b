import type { ScheduleAction } from '../domain/schedule.js';
import type { ListPage, ListQuery } from '../list-query/list-query.js';

export interface ScheduleRecord {
  id: number;
  name: string;
  action: ScheduleAction;
  /** The target: share ids one by one, a pool, a NAS, or all shares (exactly one is set). */
  share_ids: number[] | null;
  pool_id: number | null;
  nas_id: number | null;
  all_shares: boolean;
  rrule: string;
  enabled: boolean;
  /** When the next run is due; null once the rule has ended (or it could not be evaluated). */
  next_run_at: string | null;
  last_run_at: string | null;
  missed_count: number;
  skipped_count: number;
  /** Whose rights the schedule acts with (its creator, or who last changed it): a user, a key, or neither (the system). */
  creator_user_id: number | null;
  creator_key_id: number | null;
  /** Set while its rule could not be evaluated: not looked at again before then. */
  retry_at: string | null;
  /** What last went wrong with it (a rule refused, a creator gone), null once a run goes well. */
  last_error: string | null;
  /** Shares its runs did not start a job on (refused for that share), in all. */
  not_started_count: number;
  created_at: string;
  updated_at: string;
}

export type ScheduleInsert = Omit<
  ScheduleRecord,
  'id' | 'last_run_at' | 'missed_count' | 'skipped_count' | 'retry_at' | 'last_error' | 'not_started_count' | 'created_at' | 'updated_at'
>;
export type SchedulePatch = Partial<ScheduleInsert & Pick<ScheduleRecord, 'retry_at' | 'last_error'>>;

/** A run claimed from storage: the schedule moves on to `next_run_at` and counts what it missed. */
export interface ScheduleAdvance {
  /** The due time the claimer read: the claim holds only if no one moved the schedule since. */
  dueAt: string;
  nextRunAt: string | null;
  ranAt: string;
  missed: number;
}

/** A run of a schedule whose shares are being fed to the queue, or are left to feed (after a stop). */
export interface ScheduleRunRecord {
  id: number;
  schedule_id: number;
  due_at: string;
  started_at: string;
  /** Shares are fed by ascending id: every one up to this id is done (queued or counted). */
  after_share_id: number;
  lease_owner: string | null;
  lease_until: string | null;
  finished_at: string | null;
  queued_count: number;
  not_started_count: number;
}

/** Who holds a run, and until when it may feed it without renewing. */
export interface RunLease {
  owner: string;
  until: string;
}

/** A schedule that aims at a pool, a NAS or a share (what a delete of it would leave aimless). */
export interface ScheduleAim {
  id: number;
  name: string;
}

export interface ScheduleStore {
  list(query: ListQuery): Promise<ListPage<ScheduleRecord>>;
  get(id: number): Promise<ScheduleRecord | undefined>;
  findByName(name: string): Promise<ScheduleRecord | undefined>;
  create(values: ScheduleInsert): Promise<ScheduleRecord>;
  update(id: number, patch: SchedulePatch): Promise<ScheduleRecord | undefined>;
  delete(id: number): Promise<boolean>;
  /** Enabled schedules due at `now` and not backing off, soonest first. */
  due(now: string, limit: number): Promise<ScheduleRecord[]>;
  /** When the soonest enabled schedule is due (its back-off included); undefined when none is. */
  nextDueAt(): Promise<string | undefined>;
  /**
   * Claims a due run: moves the schedule on, in one conditional statement, only if it is still
   * due at `dueAt` (compare-and-set): of replicas claiming one run, exactly one gets true.
   * Clears the back-off and the last error.
   */
  advance(id: number, advance: ScheduleAdvance): Promise<boolean>;
  /** Puts off a schedule whose rule failed until `retryAt`, with the reason, if still due at `dueAt`. */
  backOff(id: number, dueAt: string, retryAt: string, reason: string): Promise<void>;
  /** Counts a run that was not started because the previous one's jobs were still going. */
  countSkipped(id: number): Promise<void>;
  /** Schedules aiming at the pool, the NAS or the share (a share named one by one). */
  aimingAt(target: { poolId: number } | { nasId: number } | { shareId: number }): Promise<ScheduleAim[]>;

  /** Stores a claimed run, held by `lease`. */
  startRun(scheduleId: number, dueAt: string, startedAt: string, lease: RunLease): Promise<ScheduleRunRecord>;
  /**
   * Marks the shares up to `shareId` done, counting one queued or not started, and renews the
   * lease, only while `owner` holds it: false when another replica took the run over.
   */
  stepRun(runId: number, owner: string, shareId: number, outcome: 'queued' | 'not_started', leaseUntil: string): Promise<boolean>;
  /** Renews the lease while waiting; false when no longer held by `owner`. */
  renewRun(runId: number, owner: string, leaseUntil: string): Promise<boolean>;
  /** Lets go of a run (a graceful stop): any replica may take it over at once. */
  releaseRun(runId: number, owner: string): Promise<void>;
  /**
   * Takes over one unfinished run whose lease is gone or ran out, oldest first. `heldByTheDead`
   * (an exclusive owner at start: whoever held a run is no longer running): also a run another
   * owner than `lease.owner` holds, whatever its lease.
   */
  takeOverRun(now: string, lease: RunLease, heldByTheDead?: boolean): Promise<ScheduleRunRecord | undefined>;
  finishRun(runId: number, owner: string, finishedAt: string): Promise<void>;
  getRun(runId: number): Promise<ScheduleRunRecord | undefined>;
}
