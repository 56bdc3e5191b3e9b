import type { Selectable } from 'kysely';
import type { AlertSource } from '../domain/alert.js';
import type { Severity } from '../domain/trap.js';
import { columnsOf } from './columns.js';

/**
 * A condition seen but not yet acted on (docs/decisions/172-alert-damping.md): a raise waiting
 * for `raise_after_seconds`, or a clear waiting for `clear_after_seconds`. One row per condition
 * (source and resource), in storage so a restart or another replica neither loses nor doubles it.
 */
export interface AlertPendingTable {
  /** Source and resource, as an open alert's `open_key`. */
  condition_key: string;
  /** `raise`: no alert is open yet; `clear`: the open alert's condition is gone. */
  kind: 'raise' | 'clear';
  source: AlertSource;
  resource_type: string | null;
  resource_id: string | null;
  resource_name: string | null;
  /** What the alert says and its level once raised (a raise); the latest sighting's. */
  message: string;
  level: Severity;
  /** When this kind was first seen without a break: the hold counts from here. */
  first_seen_at: string;
  last_seen_at: string;
  /** The hold that applied at the latest sighting: due at first_seen_at plus this. */
  hold_seconds: number;
}

export type AlertPendingRow = Selectable<AlertPendingTable>;
export const alertPendingColumns = columnsOf<AlertPendingRow>({
  condition_key: true,
  kind: true,
  source: true,
  resource_type: true,
  resource_id: true,
  resource_name: true,
  message: true,
  level: true,
  first_seen_at: true,
  last_seen_at: true,
  hold_seconds: true,
});
