import type { ComponentType } from 'react';
import { OverviewScreen } from '../screens/overview.js';
import { NasScreen } from '../screens/nas.js';
import { PoolsScreen } from '../screens/pools.js';
import { SharesScreen } from '../screens/shares.js';
import { TrapsScreen } from '../screens/traps.js';
import { SnmpServerScreen } from '../screens/snmp-server.js';
import { ApiKeysScreen } from '../screens/api-keys.js';
import { CorsRulesScreen } from '../screens/cors-rules.js';
import { JwtScreen } from '../screens/jwt.js';
import { UsersScreen } from '../screens/users.js';
import { SettingsScreen } from '../screens/settings.js';

/** What every screen gets: who is signed in (some screens are for admins only). */
export interface ScreenProps {
  user: { username: string; admin: boolean };
}

export interface ScreenEntry {
  id: string;
  /** The navigation label and the screen's heading. */
  title: string;
  group: string;
  Component: ComponentType<ScreenProps>;
}

/** The console's screens in menu order; the spec's "System → Configuration → API Security" is its group. */
export const screens: readonly ScreenEntry[] = [
  { id: 'overview', title: 'Overview', group: '', Component: OverviewScreen },
  { id: 'nas', title: 'NAS', group: 'Storage', Component: NasScreen },
  { id: 'pools', title: 'Pools', group: 'Storage', Component: PoolsScreen },
  { id: 'shares', title: 'Shares', group: 'Storage', Component: SharesScreen },
  { id: 'traps', title: 'Trap targets', group: 'SNMP', Component: TrapsScreen },
  { id: 'snmp-server', title: 'SNMP server', group: 'SNMP', Component: SnmpServerScreen },
  { id: 'api-keys', title: 'API keys', group: 'API security', Component: ApiKeysScreen },
  { id: 'cors-rules', title: 'Cross-origin rules', group: 'API security', Component: CorsRulesScreen },
  { id: 'jwt', title: 'JWT mode', group: 'API security', Component: JwtScreen },
  { id: 'users', title: 'Users', group: 'System', Component: UsersScreen },
  { id: 'settings', title: 'Settings', group: 'System', Component: SettingsScreen },
];
