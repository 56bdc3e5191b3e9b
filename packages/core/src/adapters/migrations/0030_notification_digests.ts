import { sql, type Kysely } from 'kysely';
import type { MigrationDialect, SharedMigration } from './migration-dialect.js';

/**
 * Migration 0030 (issue 44), written once for both dialects: hourly and daily digests
 * (docs/decisions/173-notification-digests.md): a channel's daily hour and the end of its latest
 * digested period; the events waiting for a digest, per channel. And SNMP trap targets as a kind
 * of channel (docs/decisions/174-snmp-traps-as-a-channel.md): a channel row of type `snmp_trap`
 * per target (made at its first trap) holds its queue; deleting the target deletes it.
 */
async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  const channels = () => db.schema.alterTable('notification_channels');
  await channels()
    .addColumn('digest_hour', 'integer', (column) => column.notNull().defaultTo(8))
    .execute();
  await channels().addColumn('digested_until', dialect.timestamp).execute();
  await channels()
    .addColumn('trap_id', 'integer', (column) => column.references('snmp_traps.id').onDelete('cascade'))
    .execute();
  await db.schema.createIndex('notification_channels_trap').on('notification_channels').column('trap_id').unique().execute();
  await db.schema
    .createTable('notification_digest_items')
    .addColumn('id', 'integer', dialect.identity)
    .addColumn('channel_id', 'integer', (column) => column.notNull().references('notification_channels.id').onDelete('cascade'))
    .addColumn('message', 'text', (column) => column.notNull())
    .addColumn('created_at', dialect.timestamp, (column) => column.notNull())
    .execute();
  // The dispatcher's heads (each channel's oldest unfinished delivery) from the unfinished rows only.
  await db.schema
    .createIndex('notification_deliveries_unfinished')
    .on('notification_deliveries')
    .columns(['channel_id', 'id'])
    .where(sql.ref('next_attempt_at'), 'is not', null)
    .execute();
  await db.schema.createIndex('notification_digest_items_channel').on('notification_digest_items').columns(['channel_id', 'created_at']).execute();
}

export const notificationDigests: SharedMigration = { name: '0030_notification_digests', up };
