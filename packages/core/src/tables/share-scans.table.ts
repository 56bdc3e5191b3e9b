import type { Generated, Selectable } from 'kysely';
import { columnsOf } from './columns.js';

/** A completed scan, as kept in the share's scan history (GET /nas_shares/{id}/scans). */
export interface ShareScanTable {
  id: Generated<number>;
  share_id: number;
  at: string;
  file_count: number;
  file_size_sum: number;
  duration_ms: number;
  /** The share's capacity when the scan ended; null when the protocol did not tell it. */
  capacity_bytes: number | null;
  free_bytes: number | null;
}

export const shareScanColumns = columnsOf<Selectable<ShareScanTable>>({
  id: true,
  share_id: true,
  at: true,
  file_count: true,
  file_size_sum: true,
  duration_ms: true,
  capacity_bytes: true,
  free_bytes: true,
});
