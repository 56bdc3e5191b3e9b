import type { Kysely } from 'kysely';
import type { SharedMigration } from './migration-dialect.js';

/**
 * Migration 0022 (issue 42), written once for both dialects: a share's own thresholds of
 * `share_nearly_full`, null where the source's `/alert_settings` apply
 * (docs/decisions/142-capacity-thresholds-per-share.md).
 */
async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('nas_shares').addColumn('capacity_warning_percent', 'integer').execute();
  await db.schema.alterTable('nas_shares').addColumn('capacity_critical_percent', 'integer').execute();
}

export const capacityOverrides: SharedMigration = { name: '0022_capacity_overrides', up };
