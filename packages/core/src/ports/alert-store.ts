import type { AlertSource } from '../domain/alert.js';
import type { Severity } from '../domain/trap.js';
import type { AlertRow } from '../tables/alerts.table.js';
import type { ListPage, ListQuery } from '../list-query/list-query.js';

export interface AlertRecord extends Omit<AlertRow, 'silenced'> {
  /** A silence held its notifications back when last looked at (docs/decisions/171-silences.md). */
  silenced: boolean;
}

/** A condition as a source sees it now; `silenced` when an active silence matches it (left out: not). */
export type AlertSighting = Pick<AlertRecord, 'source' | 'level' | 'resource_type' | 'resource_id' | 'resource_name' | 'message'> & {
  at: string;
  /** When the condition started, if before `at` (a raise held by raise_after_seconds): the alert's raised_at. */
  since?: string;
  silenced?: boolean;
};

export interface AlertSettingRecord {
  source: AlertSource;
  enabled: boolean;
  level: Severity;
  /** The capacity sources' thresholds (domain/alert.ts alertThresholds); absent where not set. */
  warning_percent?: number;
  critical_percent?: number;
  days?: number;
  /** How long a condition must last before it is raised; null: automatic (docs/decisions/172-alert-damping.md). */
  raise_after_seconds: number | null;
  /** How long a condition must be gone before it clears. */
  clear_after_seconds: number;
}

/**
 * Alerts as conditions: at most one open alert per source and resource (its `open key`). A
 * sighting of an open one updates it (`last_seen_at`, message, level) instead of adding one.
 */
/**
 * A reader without admin rights: an alert about an API key (its name, last four characters,
 * expiry) is listed to them only when the key is their own (`owner_user_id`; null: none is).
 */
export interface AlertReader {
  keyOwnerUserId: number | null;
}

export interface AlertStore {
  /** Opens the alert of this condition, or updates the open one; `raised` says which, `previousLevel` the open one's level before (null when raised). */
  sight(sighting: AlertSighting): Promise<{ alert: AlertRecord; raised: boolean; previousLevel: Severity | null }>;
  /** Clears the open alert of this condition; resolves it, or undefined when none was open. */
  clear(source: AlertSource, resourceType: string | null, resourceId: string | null, at: string): Promise<AlertRecord | undefined>;
  /** The open alert of this condition, if any. */
  findOpen(source: AlertSource, resourceType: string | null, resourceId: string | null): Promise<AlertRecord | undefined>;
  /** Open alerts of a source (the sweeps compare them with what they see now). */
  open(source: AlertSource): Promise<AlertRecord[]>;
  /** Every open alert (silences are looked at against them). */
  openAll(): Promise<AlertRecord[]>;
  /**
   * Marks an alert silenced, only while one of `heldBy` (the silences that match it) still holds
   * at `at`: a silence deleted meanwhile, on any replica, leaves no mark for nobody to take back.
   */
  markSilenced(id: number, heldBy: readonly number[], at: string): Promise<void>;
  /**
   * Claims the end of an open alert's silence: unmarks it only if it is marked, and resolves it
   * then (undefined otherwise), so one caller of all replicas tells it once.
   */
  unsilence(source: AlertSource, resourceType: string | null, resourceId: string | null): Promise<AlertRecord | undefined>;
  /** Open alerts counted by source and level (only pairs that have some): read through the alerts_open index, never the cleared ones. */
  countOpen(): Promise<Array<{ source: AlertSource; level: Severity; count: number }>>;
  get(id: number): Promise<AlertRecord | undefined>;
  /** One page; for a reader who is not an admin, without the alerts about other users' API keys. */
  list(query: ListQuery, reader?: AlertReader): Promise<ListPage<AlertRecord>>;
  /** Sets or unsets dismissed_at; resolves the alert, or undefined when it does not exist. */
  dismiss(id: number, at: string | null): Promise<AlertRecord | undefined>;
  /** Deletes at most `limit` alerts cleared before `before`; resolves how many. */
  purgeCleared(before: string, limit: number): Promise<number>;
  settings(): Promise<AlertSettingRecord[]>;
  saveSetting(setting: AlertSettingRecord): Promise<void>;
}
