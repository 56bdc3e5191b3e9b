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
  /** 0 or 1: a disabled user cannot sign in, and its sessions and keys stop at their next request. */
  disabled: Generated<number>;
  /** A built-in role's name or a custom role's (docs/api.md#roles). */
  role: string;
  created_at: string;
}

export const userColumns = columnsOf<Selectable<UserTable>>({
  id: true,
  username: true,
  password_hash: true,
  admin: true,
  role: true,
  disabled: true,
  created_at: true,
});
