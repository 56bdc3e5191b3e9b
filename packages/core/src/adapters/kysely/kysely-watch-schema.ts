/**
 * Issue 23, the same on both adapters but for the id and text types: schedules and the jobs
 * their runs start, each share's health and last test and scan, every completed scan kept,
 * alerts (a condition: at most one open per source and resource) and their settings.
 */
export function watchStatements(identity: string, text: string): string[] {
  return [
    `create table schedules (
      id ${identity},
      name ${text} not null unique,
      action ${text} not null,
      share_ids text,
      pool_id integer references pools(id) on delete cascade,
      nas_id integer references nas(id) on delete cascade,
      all_shares integer not null default 0,
      rrule text not null,
      enabled integer not null default 1,
      next_run_at ${text},
      last_run_at ${text},
      missed_count integer not null default 0,
      skipped_count integer not null default 0,
      created_at ${text} not null,
      updated_at ${text} not null)`,
    'create index schedules_due on schedules (enabled, next_run_at)',
    'alter table jobs add column schedule_id integer',
    'create index jobs_schedule on jobs (schedule_id, status)',
    `alter table nas_shares add column health ${text} not null default 'unknown'`,
    `alter table nas_shares add column last_tested_at ${text}`,
    `alter table nas_shares add column last_test_status ${text}`,
    `alter table nas_shares add column last_scanned_at ${text}`,
    `create table share_scans (
      id ${identity},
      share_id integer not null references nas_shares(id) on delete cascade,
      at ${text} not null,
      file_count bigint not null,
      file_size_sum bigint not null,
      duration_ms integer not null)`,
    'create index share_scans_share on share_scans (share_id, at, id)',
    'create index share_scans_at on share_scans (at, id)',
    `create table alerts (
      id ${identity},
      source ${text} not null,
      level integer not null,
      resource_type ${text},
      resource_id ${text},
      resource_name ${text},
      message text not null,
      raised_at ${text} not null,
      last_seen_at ${text} not null,
      cleared_at ${text},
      dismissed_at ${text},
      sightings integer not null default 1,
      open_key ${text} unique)`,
    'create index alerts_raised on alerts (raised_at, id)',
    'create index alerts_open on alerts (cleared_at, raised_at, id)',
    `create table alert_settings (source ${text} primary key, enabled integer not null, level integer not null)`,
  ];
}
