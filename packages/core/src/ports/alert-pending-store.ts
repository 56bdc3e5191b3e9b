import type { AlertSource } from '../domain/alert.js';
import type { AlertPendingRow } from '../tables/alert-pending.table.js';

export type PendingCondition = AlertPendingRow;
export type PendingKind = PendingCondition['kind'];

/** A condition as a source sees it now, to be held: `first_seen_at` is the store's to keep. */
export type PendingSighting = Omit<PendingCondition, 'condition_key' | 'first_seen_at'>;

/**
 * Conditions seen but not yet raised or cleared (docs/decisions/172-alert-damping.md): at most
 * one row per condition (source and resource), a pending raise or a pending clear.
 */
export interface AlertPendingStore {
  /**
   * Holds the condition: adds it, or updates the held one, keeping its `first_seen_at` while it
   * is of the same kind (a pending raise becoming a pending clear starts again). Resolves the row.
   */
  hold(sighting: PendingSighting): Promise<PendingCondition>;
  /** Deletes the held condition (of this kind, or of either); resolves it, or undefined when none was held: a replica that gets it acts on it. */
  release(source: AlertSource, resourceType: string | null, resourceId: string | null, kind?: PendingKind): Promise<PendingCondition | undefined>;
  /** The held conditions of a source, or all (the sweep acts on those that are due; at most one per condition). */
  list(source?: AlertSource): Promise<PendingCondition[]>;
  /** Deletes every held condition of a source (turned off). */
  releaseAll(source: AlertSource): Promise<number>;
}
