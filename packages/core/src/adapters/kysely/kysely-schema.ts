import type { AlertSettingTable } from '../../tables/alert-settings.table.js';
import type { AlertTable } from '../../tables/alerts.table.js';
import type { AlertPendingTable } from '../../tables/alert-pending.table.js';
import type { ApiKeyTable } from '../../tables/api-keys.table.js';
import type { AuditEventTable } from '../../tables/audit-events.table.js';
import type { CorsRuleTable } from '../../tables/cors-rules.table.js';
import type { JobTable } from '../../tables/jobs.table.js';
import type { NasShareTable } from '../../tables/nas-shares.table.js';
import type { NasTable } from '../../tables/nas.table.js';
import type { NotificationChannelTable } from '../../tables/notification-channels.table.js';
import type { NotificationDeliveryTable } from '../../tables/notification-deliveries.table.js';
import type { OidcIdentityTable } from '../../tables/oidc-identities.table.js';
import type { OidcLoginTable } from '../../tables/oidc-logins.table.js';
import type { SilenceTable } from '../../tables/silences.table.js';
import type { NotificationDigestItemTable } from '../../tables/notification-digest-items.table.js';
import type { PoolTable } from '../../tables/pools.table.js';
import type { ScheduleRunTable } from '../../tables/schedule-runs.table.js';
import type { ScheduleTable } from '../../tables/schedules.table.js';
import type { SettingTable } from '../../tables/settings.table.js';
import type { ShareCapacitySampleTable } from '../../tables/share-capacity-samples.table.js';
import type { ShareScanTable } from '../../tables/share-scans.table.js';
import type { ShareScanAnalyticsTable } from '../../tables/share-scan-analytics.table.js';
import type { SnmpServerConfigurationTable } from '../../tables/snmp-server-configuration.table.js';
import type { SnmpTrapTable } from '../../tables/snmp-traps.table.js';
import type { UserTable } from '../../tables/users.table.js';
import type { UserTotpTable } from '../../tables/user-totp.table.js';
import type { SessionTable } from '../../tables/sessions.table.js';
import type { RoleTable } from '../../tables/roles.table.js';

export type {
  AlertPendingTable,
  AlertSettingTable,
  AlertTable,
  ApiKeyTable,
  AuditEventTable,
  CorsRuleTable,
  JobTable,
  NasShareTable,
  NasTable,
  NotificationChannelTable,
  NotificationDeliveryTable,
  OidcIdentityTable,
  OidcLoginTable,
  SilenceTable,
  NotificationDigestItemTable,
  PoolTable,
  ScheduleRunTable,
  ScheduleTable,
  SettingTable,
  ShareCapacitySampleTable,
  ShareScanTable,
  ShareScanAnalyticsTable,
  SnmpServerConfigurationTable,
  SnmpTrapTable,
  UserTable,
  UserTotpTable,
  SessionTable,
};

/**
 * The tables as both SQL adapters store them (timestamps ISO-8601 text, JSON as text), each
 * declared once in `packages/core/src/tables` (docs/decisions/139-each-table-declared-once.md).
 */
export interface Database {
  schedules: ScheduleTable;
  schedule_runs: ScheduleRunTable;
  share_scans: ShareScanTable;
  share_scan_analytics: ShareScanAnalyticsTable;
  share_capacity_samples: ShareCapacitySampleTable;
  alerts: AlertTable;
  alert_settings: AlertSettingTable;
  alert_pending: AlertPendingTable;
  audit_events: AuditEventTable;
  cors_rules: CorsRuleTable;
  nas: NasTable;
  pools: PoolTable;
  nas_shares: NasShareTable;
  snmp_traps: SnmpTrapTable;
  snmp_server_configuration: SnmpServerConfigurationTable;
  users: UserTable;
  user_totp: UserTotpTable;
  sessions: SessionTable;
  roles: RoleTable;
  api_keys: ApiKeyTable;
  settings: SettingTable;
  jobs: JobTable;
  notification_channels: NotificationChannelTable;
  notification_deliveries: NotificationDeliveryTable;
  oidc_logins: OidcLoginTable;
  oidc_identities: OidcIdentityTable;
  silences: SilenceTable;
  notification_digest_items: NotificationDigestItemTable;
}
