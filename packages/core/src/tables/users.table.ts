import type { Generated, Selectable } from 'kysely';
import { columnsOf } from './columns.js';

export interface UserTable {
  id: Generated<number>;
  username: string;
  password_hash: string;
  /** 0 or 1: SQLite has no boolean; the record's `admin` is a boolean. */
  admin: number;
  /** 0 or 1: a disabled user cannot sign in, and its sessions and keys stop at their next request. */
  disabled: Generated<number>;
  created_at: string;
}

export const userColumns = columnsOf<Selectable<UserTable>>({ id: true, username: true, password_hash: true, admin: true, disabled: true, created_at: true });
