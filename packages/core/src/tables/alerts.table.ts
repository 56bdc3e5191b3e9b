import type { Generated, Selectable } from 'kysely';
import type { AlertSource } from '../domain/alert.js';
import type { Severity } from '../domain/trap.js';
import { columnsOf } from './columns.js';

export interface AlertTable {
  id: Generated<number>;
  source: AlertSource;
  level: Severity;
  resource_type: string | null;
  resource_id: string | null;
  resource_name: string | null;
  message: string;
  raised_at: string;
  last_seen_at: string;
  cleared_at: string | null;
  dismissed_at: string | null;
  /** How many times the condition was seen while open: 1 means this sighting raised it. */
  sightings: Generated<number>;
  /** Source and resource while the alert is open, null once cleared: one open alert per condition. */
  open_key: string | null;
  /** 0 or 1: a silence held its notifications back the last time it was looked at (docs/decisions/171-silences.md). */
  silenced: Generated<number>;
}

/** An alert as its store reads it: without the store's own bookkeeping. */
export type AlertRow = Omit<Selectable<AlertTable>, 'sightings' | 'open_key'>;
export const alertColumns = columnsOf<AlertRow>({
  id: true,
  source: true,
  level: true,
  resource_type: true,
  resource_id: true,
  resource_name: true,
  message: true,
  raised_at: true,
  last_seen_at: true,
  cleared_at: true,
  dismissed_at: true,
  silenced: true,
});
