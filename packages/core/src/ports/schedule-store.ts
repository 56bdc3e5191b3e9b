import type { Selectable } from 'kysely';
import type { ScheduleTable } from '../tables/schedules.table.js';
import type { ScheduleRunTable } from '../tables/schedule-runs.table.js';
import type { ListPage, ListQuery } from '../list-query/list-query.js';

/** A schedule as stored, its share ids parsed and its flags booleans. */
export interface ScheduleRecord extends Omit<Selectable<ScheduleTable>, 'share_ids' | 'all_shares' | 'enabled'> {
  share_ids: number[] | null;
  all_shares: boolean;
  enabled: boolean;
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
export type ScheduleRunRecord = Selectable<ScheduleRunTable>;

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
