import type { Kysely } from 'kysely';
import type { SharedMigration } from './migration-dialect.js';

/**
 * Migration 0034 (issue 48), written once for both dialects: the audit list's `outcome` and
 * `actor_kind` filters were the two it read the whole table for (10 M events: 0.7 s on SQLite,
 * 0.9 s on PostgreSQL, found by the scale bench's plans). Each index ends as the others do, in
 * the list's order (`at`, `id`), so a page and its count walk only the matches
 * (docs/decisions/186-history-list-counts.md). Built over the existing events at upgrade: seconds
 * per million.
 */
async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('audit_events_outcome').on('audit_events').columns(['outcome', 'at', 'id']).execute();
  await db.schema.createIndex('audit_events_actor_kind').on('audit_events').columns(['actor_kind', 'at', 'id']).execute();
}

export const auditFilterIndexes: SharedMigration = { name: '0034_audit_filter_indexes', up };
