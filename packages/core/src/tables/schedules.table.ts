import type { Generated, Selectable } from 'kysely';
import type { ScheduleAction } from '../domain/schedule.js';
import { columnsOf } from './columns.js';
import type { JsonText } from './json-text.js';

export interface ScheduleTable {
  id: Generated<number>;
  name: string;
  action: ScheduleAction;
  /** The target: share ids one by one (JSON), a pool, a NAS, or all shares (exactly one is set). */
  share_ids: JsonText<number[]> | null;
  pool_id: number | null;
  nas_id: number | null;
  /** 0 or 1, as `enabled`: the record's are booleans. */
  all_shares: number;
  rrule: string;
  enabled: number;
  /** When the next run is due; null once the rule has ended (or it could not be evaluated). */
  next_run_at: string | null;
  last_run_at: string | null;
  missed_count: Generated<number>;
  skipped_count: Generated<number>;
  created_at: string;
  updated_at: string;
  /** Whose rights the schedule acts with (its creator, or who last changed it): a user, a key, or neither (the system). */
  creator_user_id: number | null;
  creator_key_id: number | null;
  /** Set while its rule could not be evaluated: not looked at again before then. */
  retry_at: string | null;
  /** What last went wrong with it (a rule refused, a creator gone), null once a run goes well. */
  last_error: string | null;
  /** Shares its runs did not start a job on (refused for that share), in all. */
  not_started_count: Generated<number>;
}

export const scheduleColumns = columnsOf<Selectable<ScheduleTable>>({
  id: true,
  name: true,
  action: true,
  share_ids: true,
  pool_id: true,
  nas_id: true,
  all_shares: true,
  rrule: true,
  enabled: true,
  next_run_at: true,
  last_run_at: true,
  missed_count: true,
  skipped_count: true,
  creator_user_id: true,
  creator_key_id: true,
  retry_at: true,
  last_error: true,
  not_started_count: true,
  created_at: true,
  updated_at: true,
});
