import type { Kysely } from 'kysely';
import type { MigrationDialect, SharedMigration } from './migration-dialect.js';

/**
 * Migration 0029 (issue 44), written once for both dialects: flap damping
 * (docs/decisions/172-alert-damping.md). Each alert source's hold before a raise and before a
 * clear, and the conditions seen but not yet raised or cleared, one row per condition.
 */
async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  const { timestamp } = dialect;
  await db.schema.alterTable('alert_settings').addColumn('raise_after_seconds', 'integer').execute();
  await db.schema.alterTable('alert_settings').addColumn('clear_after_seconds', 'integer').execute();
  await db.schema
    .createTable('alert_pending')
    .addColumn('condition_key', 'text', (column) => column.primaryKey())
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('source', 'text', (column) => column.notNull())
    .addColumn('resource_type', 'text')
    .addColumn('resource_id', 'text')
    .addColumn('resource_name', 'text')
    .addColumn('message', 'text', (column) => column.notNull())
    .addColumn('level', 'integer', (column) => column.notNull())
    .addColumn('first_seen_at', timestamp, (column) => column.notNull())
    .addColumn('last_seen_at', timestamp, (column) => column.notNull())
    .addColumn('hold_seconds', 'integer', (column) => column.notNull())
    .execute();
}

export const alertDamping: SharedMigration = { name: '0029_alert_damping', up };
