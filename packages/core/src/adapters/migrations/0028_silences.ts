import type { Kysely } from 'kysely';
import type { MigrationDialect, SharedMigration } from './migration-dialect.js';

/**
 * Migration 0028 (issue 44), written once for both dialects: silences, and on each alert
 * whether a silence held its notifications back (docs/decisions/171-silences.md). The active
 * silences are read by their window on every raise: indexed by it.
 */
async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  await db.schema
    .alterTable('alerts')
    .addColumn('silenced', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
  const { timestamp } = dialect;
  await db.schema
    .createTable('silences')
    .addColumn('id', 'integer', dialect.identity)
    .addColumn('matchers', 'text', (column) => column.notNull())
    .addColumn('starts_at', timestamp, (column) => column.notNull())
    .addColumn('ends_at', timestamp)
    .addColumn('rrule', 'text')
    .addColumn('duration_seconds', 'integer')
    .addColumn('until_cleared', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('reason', 'text', (column) => column.notNull())
    .addColumn('created_by', 'integer')
    .addColumn('window_starts_at', timestamp)
    .addColumn('window_ends_at', timestamp)
    .addColumn('created_at', timestamp, (column) => column.notNull())
    .addColumn('updated_at', timestamp, (column) => column.notNull())
    .execute();
  await db.schema.createIndex('silences_window').on('silences').columns(['window_starts_at', 'window_ends_at']).execute();
}

export const silences: SharedMigration = { name: '0028_silences', up };
