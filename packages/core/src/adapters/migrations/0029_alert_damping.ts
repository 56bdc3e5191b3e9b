import type { Kysely } from 'kysely';
import type { MigrationDialect, SharedMigration } from './migration-dialect.js';

/**
 * Migration 0029 (issue 44), written once for both dialects: flap damping
 * (docs/decisions/172-alert-damping.md). The conditions seen but not yet raised or cleared, one
 * row per condition, and each alert source's hold before a raise and before a clear.
 */
export const alertDamping: SharedMigration = {
  name: '0029_alert_damping',
  async up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
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
      .addColumn('first_seen_at', dialect.timestamp, (column) => column.notNull())
      .addColumn('last_seen_at', dialect.timestamp, (column) => column.notNull())
      .addColumn('hold_seconds', 'integer', (column) => column.notNull())
      .execute();
    for (const column of ['raise_after_seconds', 'clear_after_seconds']) await db.schema.alterTable('alert_settings').addColumn(column, 'integer').execute();
  },
};
