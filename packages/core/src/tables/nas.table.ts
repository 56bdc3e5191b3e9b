import type { Generated, Selectable } from 'kysely';
import type { NasType } from '../domain/common.js';
import { columnsOf, type RowTimestamps } from './columns.js';

export interface NasTable {
  id: Generated<number>;
  name: string;
  host: string;
  type: NasType;
  comment: string | null;
  price: string | null;
  created_at: string;
  updated_at: string;
}

/** A NAS as its store reads it. */
export type NasRow = Omit<Selectable<NasTable>, RowTimestamps>;
export const nasColumns = columnsOf<NasRow>({ id: true, name: true, host: true, type: true, comment: true, price: true });
