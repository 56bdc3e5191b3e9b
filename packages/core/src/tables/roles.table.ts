import type { Generated, Selectable } from 'kysely';
import type { Scope } from '../scopes/scope.js';
import { columnsOf } from './columns.js';
import type { JsonText } from './json-text.js';

/** A custom role (docs/api.md#roles); the built-in ones are code, never rows. */
export interface RoleTable {
  id: Generated<number>;
  /** Unique, never a built-in's; users and keys name their role by it, so it is not renamed. */
  name: string;
  description: string | null;
  scopes: JsonText<Scope[]>;
  created_at: string;
  updated_at: string;
}

export type RoleRow = Selectable<RoleTable>;
export const roleColumns = columnsOf<RoleRow>({ id: true, name: true, description: true, scopes: true, created_at: true, updated_at: true });
