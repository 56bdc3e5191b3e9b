import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

export interface CapacityDialect {
  /** The id column's definition: SQLite's autoincrement, PostgreSQL's identity. */
  identity(column: ColumnDefinitionBuilder): ColumnDefinitionBuilder;
  /** Timestamps: text on SQLite, text that sorts by code point on PostgreSQL. */
  timestamp: 'text' | ReturnType<typeof sql>;
}

/**
 * Migration 0021 (issue 42), written once for both dialects: a share's capacity as its latest
 * test or scan read it and the forecast made from its history; each scan's capacity; every
 * reading kept as the share's capacity history (purged after `capacity_retention_days`); and
 * the thresholds of the capacity alerts in their settings rows.
 */
export async function shareCapacityMigration(db: Kysely<unknown>, dialect: CapacityDialect): Promise<void> {
  const { timestamp } = dialect;
  await db.schema.alterTable('nas_shares').addColumn('capacity_bytes', 'bigint').execute();
  await db.schema.alterTable('nas_shares').addColumn('free_bytes', 'bigint').execute();
  await db.schema.alterTable('nas_shares').addColumn('capacity_checked_at', timestamp).execute();
  // JSON: {samples, days, growth_bytes_per_day, full_at}; null while there is too little history.
  await db.schema.alterTable('nas_shares').addColumn('capacity_forecast', 'text').execute();
  await db.schema.alterTable('share_scans').addColumn('capacity_bytes', 'bigint').execute();
  await db.schema.alterTable('share_scans').addColumn('free_bytes', 'bigint').execute();
  await db.schema
    .createTable('share_capacity_samples')
    .addColumn('id', 'integer', dialect.identity)
    .addColumn('share_id', 'integer', (column) => column.notNull().references('nas_shares.id').onDelete('cascade'))
    .addColumn('at', timestamp, (column) => column.notNull())
    .addColumn('capacity_bytes', 'bigint', (column) => column.notNull())
    .addColumn('free_bytes', 'bigint', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('share_capacity_samples_share').on('share_capacity_samples').columns(['share_id', 'at', 'id']).execute();
  await db.schema.createIndex('share_capacity_samples_at').on('share_capacity_samples').columns(['at', 'id']).execute();
  await db.schema.alterTable('alert_settings').addColumn('warning_percent', 'integer').execute();
  await db.schema.alterTable('alert_settings').addColumn('critical_percent', 'integer').execute();
  await db.schema.alterTable('alert_settings').addColumn('days', 'integer').execute();
}

export const sqliteCapacityDialect: CapacityDialect = {
  identity: (column) => column.primaryKey().autoIncrement(),
  timestamp: 'text',
};

export const postgresCapacityDialect: CapacityDialect = {
  identity: (column) => column.primaryKey().generatedByDefaultAsIdentity(),
  timestamp: sql`text collate "C"`,
};

/**
 * Migration 0022 (issue 42), one for both dialects: a share's own thresholds of
 * `share_nearly_full`, null where the source's `/alert_settings` apply
 * (docs/decisions/142-capacity-thresholds-per-share.md).
 */
export async function capacityOverridesMigration(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('nas_shares').addColumn('capacity_warning_percent', 'integer').execute();
  await db.schema.alterTable('nas_shares').addColumn('capacity_critical_percent', 'integer').execute();
}
