/**
 * Issue 22, the same on both adapters but for the id and text types: each job keeps the name of
 * who started it; every list order and filter of `GET /jobs` and `GET /audit_events` walks an
 * index newest first. Measured over 100,000 jobs (bench/history): status and kind together
 * (failed scans) have an index of their own, since either alone leaves a fifth to a third of
 * the table to read row by row for the other and for the count; finished_at ends the requester
 * index, so sorting a requester's jobs by when they finished reads the index, not every row.
 */
export function jobHistoryAndAuditStatements(identity: string, text: string): string[] {
  return [
    `alter table jobs add column requester ${text} not null default 'system'`,
    'create index jobs_created on jobs (created_at, id)',
    'create index jobs_share on jobs (share_id, created_at, id)',
    'create index jobs_nas on jobs (nas_id, created_at, id)',
    'create index jobs_requester_name on jobs (requester, created_at, id, finished_at)',
    'create index jobs_kind on jobs (kind, created_at, id)',
    'create index jobs_status on jobs (status, created_at, id)',
    'create index jobs_status_kind on jobs (status, kind, created_at, id)',
    'create index jobs_finished_order on jobs (finished_at, id)',
    `create table audit_events (
      id ${identity},
      at ${text} not null,
      actor_kind ${text} not null,
      actor_id integer,
      actor_name ${text} not null,
      via ${text} not null,
      client_address ${text},
      request_id ${text},
      action ${text} not null,
      resource_type ${text},
      resource_id ${text},
      resource_name ${text},
      changes text,
      outcome ${text} not null,
      count integer not null default 1,
      aggregate_key ${text} unique)`,
    'create index audit_events_at on audit_events (at, id)',
    'create index audit_events_actor on audit_events (actor_name, at, id)',
    'create index audit_events_action on audit_events (action, at, id)',
    'create index audit_events_resource on audit_events (resource_type, resource_id, at, id)',
    'create index audit_events_via on audit_events (via, at, id)',
  ];
}
