import type { Kysely } from 'kysely';
import type { MigrationDialect, SharedMigration } from './migration-dialect.js';

/**
 * Migration 0025 (issue 44), written once for both dialects: the durable queue of
 * notifications, one row per channel and event (docs/decisions/168-notification-deliveries.md).
 */
async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  const { timestamp } = dialect;
  await db.schema
    .createTable('notification_deliveries')
    .addColumn('id', 'integer', dialect.identity)
    .addColumn('channel_id', 'integer', (column) => column.notNull().references('notification_channels.id').onDelete('cascade'))
    .addColumn('event_id', 'text', (column) => column.notNull())
    .addColumn('event_type', 'text', (column) => column.notNull())
    .addColumn('message', 'text', (column) => column.notNull())
    .addColumn('outcome', 'text', (column) => column.notNull())
    .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('at', timestamp)
    .addColumn('status_code', 'integer')
    .addColumn('error', 'text')
    .addColumn('next_attempt_at', timestamp)
    .addColumn('lease_until', timestamp)
    .addColumn('give_up_at', timestamp, (column) => column.notNull())
    .addColumn('created_at', timestamp, (column) => column.notNull())
    .addUniqueConstraint('notification_deliveries_once', ['channel_id', 'event_id'])
    .execute();
  // The dispatcher's question: the due rows, oldest first; and each channel's unfinished head.
  await db.schema.createIndex('notification_deliveries_due').on('notification_deliveries').columns(['next_attempt_at', 'id']).execute();
  await db.schema.createIndex('notification_deliveries_channel').on('notification_deliveries').columns(['channel_id', 'id']).execute();
}

export const notificationDeliveries: SharedMigration = { name: '0025_notification_deliveries', up };
