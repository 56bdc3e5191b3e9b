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
  created_at: string;
  updated_at: string;
}

export type ScheduleInsert = Omit<ScheduleRecord, 'id' | 'last_run_at' | 'missed_count' | 'skipped_count' | 'created_at' | 'updated_at'>;
export type SchedulePatch = Partial<ScheduleInsert>;

/** A run claimed from storage: the schedule moves on to `next_run_at` and counts what it missed. */
export interface ScheduleAdvance {
  /** The due time the claimer read: the claim holds only if no one moved the schedule since. */
  dueAt: string;
  nextRunAt: string | null;
  ranAt: string;
  missed: number;
}

export interface ScheduleStore {
  list(query: ListQuery): Promise<ListPage<ScheduleRecord>>;
  get(id: number): Promise<ScheduleRecord | undefined>;
  findByName(name: string): Promise<ScheduleRecord | undefined>;
  create(values: ScheduleInsert): Promise<ScheduleRecord>;
  update(id: number, patch: SchedulePatch): Promise<ScheduleRecord | undefined>;
  delete(id: number): Promise<boolean>;
  /** Enabled schedules due at `now`, soonest first. */
  due(now: string, limit: number): Promise<ScheduleRecord[]>;
  /** When the soonest enabled schedule is due; undefined when none is. */
  nextDueAt(): Promise<string | undefined>;
  /**
   * Claims a due run: moves the schedule on, in one conditional statement, only if it is still
   * due at `dueAt` (compare-and-set): of replicas claiming one run, exactly one gets true.
   */
  advance(id: number, advance: ScheduleAdvance): Promise<boolean>;
  /** Counts a run that was not started because the previous one's jobs were still going. */
  countSkipped(id: number): Promise<void>;
}
