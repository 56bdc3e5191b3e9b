import type { Kysely, Migration } from 'kysely';
import type { MigrationDialect, SharedMigration } from './migration-dialect.js';
import { shareCapacity } from './0021_share_capacity.js';
import { capacityOverrides } from './0022_capacity_overrides.js';
import { scanAnalytics } from './0023_scan_analytics.js';
import { notificationChannels } from './0024_notification_channels.js';
import { notificationDeliveries } from './0025_notification_deliveries.js';
import { testFingerprintColumn } from './0027_test_fingerprint.js';
import { silences } from './0028_silences.js';
import { alertDamping } from './0029_alert_damping.js';
import { notificationDigests } from './0030_notification_digests.js';
import { roles } from './0031_roles.js';
import { oidcTables } from './0032_oidc.js';
import { totpSessions } from './0033_totp_sessions.js';
import { historyFilterIndexes } from './0034_history_filter_indexes.js';

/**
 * Every migration since 0021, in order: a new one is a file of this folder and a line here, and
 * both adapters run it (docs/decisions/139-each-table-declared-once.md). Append-only, as the
 * raw-SQL twins before it, which stay as they ran on users' databases.
 */
export const sharedMigrations: readonly SharedMigration[] = [
  shareCapacity,
  capacityOverrides,
  scanAnalytics,
  notificationChannels,
  notificationDeliveries,
  testFingerprintColumn,
  silences,
  alertDamping,
  notificationDigests,
  roles,
  oidcTables,
  totpSessions,
  historyFilterIndexes,
];

/** The shared migrations as one dialect's list takes them. */
export function sharedMigrationsFor(dialect: MigrationDialect): Record<string, Migration> {
  return Object.fromEntries(sharedMigrations.map((migration) => [migration.name, { up: (db: Kysely<unknown>) => migration.up(db, dialect) }]));
}
