import type { Generated } from 'kysely';

/** One capacity reading of a share, by a test or a scan: its capacity history. */
export interface ShareCapacitySampleTable {
  id: Generated<number>;
  share_id: number;
  at: string;
  capacity_bytes: number;
  free_bytes: number;
}
