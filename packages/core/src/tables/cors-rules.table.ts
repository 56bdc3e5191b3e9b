import type { Generated, Selectable } from 'kysely';
import { columnsOf, type RowTimestamps } from './columns.js';
import type { JsonText } from './json-text.js';

export interface CorsRuleTable {
  id: Generated<number>;
  origins: JsonText<string[]>;
  path: string;
  methods: JsonText<string[]>;
  created_at: string;
  updated_at: string;
}

/** A rule as its store reads it (origins and methods still JSON text). */
export type CorsRuleRow = Omit<Selectable<CorsRuleTable>, RowTimestamps>;
export const corsRuleColumns = columnsOf<CorsRuleRow>({ id: true, origins: true, path: true, methods: true });
