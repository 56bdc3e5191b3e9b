import type { Generated, Selectable } from 'kysely';
import type { ShareHealth } from '../domain/nas-share.js';
import { columnsOf, type RowTimestamps } from './columns.js';
import type { JsonText } from './json-text.js';

/** A share's forecast as stored: the fitted line's growth and when it reaches the size. */
export interface ShareForecast {
  samples: number;
  days: number;
  growth_bytes_per_day: number;
  /** Null when the share is not growing. */
  full_at: string | null;
}

export interface NasShareTable {
  id: Generated<number>;
  nas_id: number;
  pool_id: number | null;
  name: string;
  path: string;
  options: string | null;
  username: string | null;
  /** Sealed by the SecretBox; never leaves the core as is. */
  password_enc: string | null;
  file_count: Generated<number>;
  file_size_sum: Generated<number>;
  created_at: string;
  updated_at: string;
  /** From the latest test (recordTest); `unknown` before any. */
  health: Generated<ShareHealth>;
  last_tested_at: string | null;
  last_test_status: 'completed' | 'failed' | null;
  /** Null until a scan completed (recordScan). */
  last_scanned_at: string | null;
  /** The latest capacity reading of a test or scan; null until one read it. */
  capacity_bytes: number | null;
  free_bytes: number | null;
  capacity_checked_at: string | null;
  /** From the capacity history (saveForecast); null while there is too little. */
  capacity_forecast: JsonText<ShareForecast> | null;
  /** The share's own `share_nearly_full` thresholds; null where the source's settings apply. */
  capacity_warning_percent: number | null;
  capacity_critical_percent: number | null;
}

/** A share as its store reads it (the forecast still JSON text). */
export type NasShareRow = Omit<Selectable<NasShareTable>, RowTimestamps>;
export const nasShareColumns = columnsOf<NasShareRow>({
  id: true,
  nas_id: true,
  pool_id: true,
  name: true,
  path: true,
  options: true,
  username: true,
  password_enc: true,
  file_count: true,
  file_size_sum: true,
  health: true,
  last_tested_at: true,
  last_test_status: true,
  last_scanned_at: true,
  capacity_bytes: true,
  free_bytes: true,
  capacity_checked_at: true,
  capacity_forecast: true,
  capacity_warning_percent: true,
  capacity_critical_percent: true,
});
