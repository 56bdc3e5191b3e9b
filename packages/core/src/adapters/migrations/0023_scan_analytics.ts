import type { Kysely } from 'kysely';
import type { SharedMigration } from './migration-dialect.js';

/**
 * Migration 0023 (issue 43), written once for both dialects: each completed scan's analytics
 * (top directories, histograms, extensions, largest files) as compact JSON, in a table of its
 * own so that listing a share's scans never reads them. A row goes with its scan (retention,
 * a deleted share) by the foreign key's cascade.
 */
async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('share_scan_analytics')
    .addColumn('scan_id', 'integer', (column) => column.primaryKey().references('share_scans.id').onDelete('cascade'))
    .addColumn('analytics', 'text', (column) => column.notNull())
    .execute();
}

export const scanAnalytics: SharedMigration = { name: '0023_scan_analytics', up };
