import type { ComponentType } from 'react';
import type { ScreenProps } from '../screens/screen-props.js';
import { OverviewScreen } from '../screens/overview.js';
import { NasScreen } from '../screens/storage/nas.js';
import { PoolsScreen } from '../screens/storage/pools.js';
import { SharesScreen } from '../screens/storage/shares.js';
import { ShareAnalyticsScreen } from '../screens/storage/share-analytics.js';
import { TrapsScreen } from '../screens/snmp/traps.js';
import { SnmpServerScreen } from '../screens/snmp/snmp-server.js';
import { ApiKeysScreen } from '../screens/security/api-keys.js';
import { CorsRulesScreen } from '../screens/security/cors-rules.js';
import { JwtScreen } from '../screens/security/jwt.js';
import { UsersScreen } from '../screens/system/users.js';
import { SettingsScreen } from '../screens/system/settings.js';
import { AccountScreen } from '../screens/account/account.js';
import { JobsScreen } from '../screens/history/jobs.js';
import { AuditScreen } from '../screens/history/audit.js';
import { SchedulesScreen } from '../screens/watch/schedules.js';
import { AlertsScreen } from '../screens/watch/alerts.js';
import { AlertSettingsScreen } from '../screens/watch/alert-settings.js';
import { NotificationChannelsScreen } from '../screens/notifications/notification-channels.js';
import { SilencesScreen } from '../screens/watch/silences.js';

export interface ScreenEntry {
  id: string;
  /** The navigation label and the screen's heading. */
  title: string;
  group: string;
  Component: ComponentType<ScreenProps>;
  /** Left out of a non-admin's menu: the core refuses them everything the screen shows. */
  adminOnly?: true;
  /** In the menu of whoever holds this scope (`controller/action`), an admin always: changes stay an admin's. */
  reads?: string;
}

/** The console's screens in menu order; the product family's "System → Configuration → API Security" menu is its group. */
export const screens: readonly ScreenEntry[] = [
  { id: 'overview', title: 'Overview', group: '', Component: OverviewScreen },
  { id: 'nas', title: 'NAS', group: 'Storage', Component: NasScreen },
  { id: 'pools', title: 'Pools', group: 'Storage', Component: PoolsScreen },
  { id: 'shares', title: 'Shares', group: 'Storage', Component: SharesScreen },
  { id: 'space', title: 'Where the space goes', group: 'Storage', Component: ShareAnalyticsScreen },
  { id: 'schedules', title: 'Schedules', group: 'Watch', Component: SchedulesScreen },
  { id: 'alerts', title: 'Alerts', group: 'Watch', Component: AlertsScreen },
  { id: 'silences', title: 'Silences', group: 'Watch', Component: SilencesScreen },
  { id: 'alert-settings', title: 'Alert settings', group: 'Watch', Component: AlertSettingsScreen, reads: 'alert_settings/index' },
  { id: 'notifications', title: 'Notifications', group: 'Watch', Component: NotificationChannelsScreen, reads: 'notification_channels/index' },
  { id: 'jobs', title: 'Jobs', group: 'History', Component: JobsScreen },
  { id: 'audit', title: 'Audit log', group: 'History', Component: AuditScreen, reads: 'audit_events/index' },
  { id: 'traps', title: 'Trap targets', group: 'SNMP', Component: TrapsScreen },
  { id: 'snmp-server', title: 'SNMP server', group: 'SNMP', Component: SnmpServerScreen },
  { id: 'api-keys', title: 'API keys', group: 'API security', Component: ApiKeysScreen },
  { id: 'cors-rules', title: 'Cross-origin rules', group: 'API security', Component: CorsRulesScreen, reads: 'cors_rules/index' },
  { id: 'jwt', title: 'JWT mode', group: 'API security', Component: JwtScreen, adminOnly: true },
  { id: 'users', title: 'Users', group: 'System', Component: UsersScreen, reads: 'users/index' },
  { id: 'settings', title: 'Settings', group: 'System', Component: SettingsScreen },
  { id: 'account', title: 'Your account', group: 'System', Component: AccountScreen },
];

/** Whether `scopes` grant `needed` (`controller/action`), `*` standing for any controller or action. */
export function grants(scopes: readonly string[], needed: string): boolean {
  const [controller, action] = needed.split('/');
  return scopes.some((scope) => {
    const [heldController, heldAction] = scope.split('/');
    return (heldController === '*' || heldController === controller) && (heldAction === '*' || heldAction === action);
  });
}

/** The screens `user` may open: all of them for an admin; for anyone else, those its role lets it read. */
export function screensFor(user: ScreenProps['user']): readonly ScreenEntry[] {
  if (user.admin) return screens;
  return screens.filter((screen) => !screen.adminOnly && (screen.reads === undefined || grants(user.scopes, screen.reads)));
}
