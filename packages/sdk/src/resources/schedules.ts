import type { Call } from '../call.js';
import type { FilterFieldOf, Schedule, ScheduleCollection, ScheduleCreate, ScheduleUpdate, SortFieldOf } from '../types.js';
import { crud, type CrudResource, type ListOptions } from './crud.js';

type ScheduleFilterField = FilterFieldOf<'listSchedules'>;
/** A schedule list filters on these and sorts on them and on `created_at` (a schedule's target and rule are not list attributes). */
export type ScheduleListOptions = ListOptions<ScheduleFilterField, ScheduleFilterField | 'created_at'>;

/** Share tests and scans started on an RFC 5545 rule (GET/POST /schedules, GET/PUT/DELETE /schedules/{schedule_id}). */
export type SchedulesResource = CrudResource<{
  item: Schedule;
  created: Schedule;
  collection: ScheduleCollection;
  create: ScheduleCreate;
  update: ScheduleUpdate;
  filter: ScheduleFilterField;
  sort: SortFieldOf<'listSchedules'>;
}>;

export function schedulesResource(call: Call): SchedulesResource {
  return crud(call, '/schedules', 'schedule_id', 'schedules');
}
