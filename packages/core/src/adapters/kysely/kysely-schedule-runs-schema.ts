/**
 * Issue 40 (0014), the same on both adapters but for the id and text types: the principal a
 * schedule acts for (docs/decisions/107-schedules-act-with-their-creators-rights.md), a rule's
 * back-off and what went wrong (109), and the runs whose remaining shares survive a stop (110).
 * The creator columns have no foreign key on purpose: a creator deleted must stop its
 * schedules with an alert, not delete them silently.
 */
export function scheduleRunStatements(identity: string, text: string): string[] {
  return [
    'alter table schedules add column creator_user_id integer',
    'alter table schedules add column creator_key_id integer',
    `alter table schedules add column retry_at ${text}`,
    `alter table schedules add column last_error ${text}`,
    'alter table schedules add column not_started_count integer not null default 0',
    `create table schedule_runs (
      id ${identity},
      schedule_id integer not null references schedules(id) on delete cascade,
      due_at ${text} not null,
      started_at ${text} not null,
      after_share_id integer not null default 0,
      lease_owner ${text},
      lease_until ${text},
      finished_at ${text},
      queued_count integer not null default 0,
      not_started_count integer not null default 0)`,
    'create index schedule_runs_open on schedule_runs (finished_at, lease_until)',
    'create index schedule_runs_schedule on schedule_runs (schedule_id, id)',
  ];
}
