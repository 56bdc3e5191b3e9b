import type { Kysely } from 'kysely';
import type { MigrationDialect, SharedMigration } from './migration-dialect.js';

/**
 * Migration 0024 (issue 44), written once for both dialects: notification channels, their
 * secrets sealed in one column (docs/decisions/167-notification-channel-secrets.md).
 */
async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  const { timestamp } = dialect;
  await db.schema
    .createTable('notification_channels')
    .addColumn('id', 'integer', dialect.identity)
    .addColumn('name', 'text', (column) => column.notNull().unique())
    .addColumn('type', 'text', (column) => column.notNull())
    .addColumn('enabled', 'integer', (column) => column.notNull().defaultTo(1))
    .addColumn('min_level', 'integer', (column) => column.notNull())
    .addColumn('sources', 'text')
    .addColumn('digest', 'text', (column) => column.notNull())
    .addColumn('settings', 'text', (column) => column.notNull())
    .addColumn('secrets', 'text', (column) => column.notNull())
    .addColumn('consecutive_failures', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('failing_since', timestamp)
    .addColumn('created_at', timestamp, (column) => column.notNull())
    .addColumn('updated_at', timestamp, (column) => column.notNull())
    .execute();
}

export const notificationChannels: SharedMigration = { name: '0024_notification_channels', up };
