import type { Kysely } from 'kysely';
import type { SharedMigration } from './migration-dialect.js';

/**
 * Migration 0034 (issue 48), written once for both dialects: the history lists' filters that read
 * the whole table, found by the scale bench's plans (10 M events, 1 M jobs). The audit list's
 * `outcome` and `actor_kind` (0.7 s on SQLite, 0.9 s on PostgreSQL), and the jobs a narrow key
 * sees, its own (`requested_by`, the filter GET /jobs adds for it: SQLite walked every job newest
 * first for a key that started none, 0.3 s with the pages cached, 7.6 s from disk; PostgreSQL 0.2 s). Each index ends as the others do, in the list's
 * order, so a page and its count walk only the matches (docs/decisions/186-history-list-counts.md).
 * Built over the existing rows at upgrade: seconds per million.
 */
async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('audit_events_outcome').on('audit_events').columns(['outcome', 'at', 'id']).execute();
  await db.schema.createIndex('audit_events_actor_kind').on('audit_events').columns(['actor_kind', 'at', 'id']).execute();
  await db.schema.createIndex('jobs_requested_by').on('jobs').columns(['requested_by', 'created_at', 'id']).execute();
}

export const historyFilterIndexes: SharedMigration = { name: '0034_history_filter_indexes', up };
