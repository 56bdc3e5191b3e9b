import type { Generated, Selectable } from 'kysely';
import { columnsOf } from './columns.js';

/** A run of a schedule whose shares are being fed to the queue, or are left to feed (after a stop). */
export interface ScheduleRunTable {
  id: Generated<number>;
  schedule_id: number;
  due_at: string;
  started_at: string;
  /** Shares are fed by ascending id: every one up to this id is done (queued or counted). */
  after_share_id: Generated<number>;
  lease_owner: string | null;
  lease_until: string | null;
  finished_at: string | null;
  queued_count: Generated<number>;
  not_started_count: Generated<number>;
}

export const scheduleRunColumns = columnsOf<Selectable<ScheduleRunTable>>({
  id: true,
  schedule_id: true,
  due_at: true,
  started_at: true,
  after_share_id: true,
  lease_owner: true,
  lease_until: true,
  finished_at: true,
  queued_count: true,
  not_started_count: true,
});
