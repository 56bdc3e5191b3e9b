import type { Generated, Selectable } from 'kysely';
import type { NotifyType, TrapVersion } from '../domain/trap.js';
import type { AuthProtocol, PrivProtocol, SecurityLevel } from '../domain/snmp-v3-security.js';
import { columnsOf, type RowTimestamps } from './columns.js';

/** A trap target. The community and the passphrases are sealed in the row; the store opens them. */
export interface SnmpTrapTable {
  id: Generated<number>;
  activation: number;
  version: TrapVersion;
  manager: string;
  /** Sealed. */
  community: string;
  severity_low: number;
  severity_high: number;
  created_at: string;
  updated_at: string;
  notify_type: Generated<NotifyType>;
  security_name: string | null;
  security_level: SecurityLevel | null;
  auth_protocol: AuthProtocol | null;
  /** Sealed like the community. */
  auth_passphrase: string | null;
  priv_protocol: PrivProtocol | null;
  /** Sealed like the community. */
  priv_passphrase: string | null;
}

/** A target as its store reads it (the secrets still sealed). */
export type SnmpTrapRow = Omit<Selectable<SnmpTrapTable>, RowTimestamps>;
export const snmpTrapColumns = columnsOf<SnmpTrapRow>({
  id: true,
  activation: true,
  version: true,
  manager: true,
  community: true,
  severity_low: true,
  severity_high: true,
  notify_type: true,
  security_name: true,
  security_level: true,
  auth_protocol: true,
  auth_passphrase: true,
  priv_protocol: true,
  priv_passphrase: true,
});
