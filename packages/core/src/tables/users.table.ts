import type { Generated, Selectable } from 'kysely';
import { columnsOf } from './columns.js';

export interface UserTable {
  id: Generated<number>;
  username: string;
  password_hash: string;
  /**
   * 0 or 1: SQLite has no boolean; the record's `admin` is a boolean. Written only with `role`,
   * as `role = 'admin'`: the index the last-admin guard locks (docs/decisions/176-roles.md).
   */
  admin: number;
  /** A built-in role's name or a custom role's (docs/api.md#roles). */
  role: string;
  created_at: string;
}

export const userColumns = columnsOf<Selectable<UserTable>>({ id: true, username: true, password_hash: true, admin: true, role: true, created_at: true });
