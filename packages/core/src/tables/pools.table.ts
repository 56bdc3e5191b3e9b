import type { Generated, Selectable } from 'kysely';
import { columnsOf, type RowTimestamps } from './columns.js';

export interface PoolTable {
  id: Generated<number>;
  name: string;
  comment: string | null;
  type: string;
  content: string;
  primary_id: number | null;
  created_at: string;
  updated_at: string;
}

/** A pool as its store reads it. */
export type PoolRow = Omit<Selectable<PoolTable>, RowTimestamps>;
export const poolColumns = columnsOf<PoolRow>({ id: true, name: true, comment: true, type: true, content: true, primary_id: true });
