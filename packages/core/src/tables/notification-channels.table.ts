import type { Generated, Selectable } from 'kysely';
import type { ChannelDigest, DispatchChannelType } from '../domain/notification-channel.js';
import { columnsOf } from './columns.js';
import type { JsonText } from './json-text.js';

/** A notification channel (docs/api.md#notification-channels). */
export interface NotificationChannelTable {
  id: Generated<number>;
  name: string;
  /** A type of the API's, or `snmp_trap`: a trap target's queue, never shown as a channel. */
  type: DispatchChannelType;
  /** 0 or 1. */
  enabled: number;
  min_level: number;
  /** JSON list of alert sources and job outcomes; null: every one. */
  sources: JsonText<string[]> | null;
  digest: ChannelDigest;
  /** A daily digest's hour, 0-23 UTC (migration 0030). */
  digest_hour: Generated<number>;
  /**
   * The end of the latest period whose digest was made: the claim that makes a period's digest
   * once across replicas (docs/decisions/173-notification-digests.md); null before the first.
   */
  digested_until: string | null;
  /** The trap target (snmp_traps) whose queue this `snmp_trap` row is; null for every other type. */
  trap_id: number | null;
  /** The type's settings that are not secret (JSON). */
  settings: JsonText<Record<string, unknown>>;
  /** The type's secrets (a webhook's signing secret, a password, a token) as one JSON object, sealed. */
  secrets: string;
  /** Failed attempts since the last success (the failing alert is raised at 3). */
  consecutive_failures: Generated<number>;
  /** When the current run of failures started; null after a success. */
  failing_since: string | null;
  created_at: string;
  updated_at: string;
}

export type NotificationChannelRow = Selectable<NotificationChannelTable>;
export const notificationChannelColumns = columnsOf<NotificationChannelRow>({
  id: true,
  name: true,
  type: true,
  enabled: true,
  min_level: true,
  sources: true,
  digest: true,
  digest_hour: true,
  digested_until: true,
  trap_id: true,
  settings: true,
  secrets: true,
  consecutive_failures: true,
  failing_since: true,
  created_at: true,
  updated_at: true,
});
