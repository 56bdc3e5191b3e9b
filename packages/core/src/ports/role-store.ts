import type { Scope } from '../scopes/scope.js';
import type { RoleRow } from '../tables/roles.table.js';

/** A custom role as the core sees it: its scopes parsed. */
export interface RoleRecord extends Omit<RoleRow, 'scopes'> {
  scopes: Scope[];
}
export type RoleInsert = Pick<RoleRecord, 'name' | 'description' | 'scopes'>;
export type RolePatch = Partial<Pick<RoleRecord, 'description' | 'scopes'>>;

/** Who still holds a role: a role in use is not deleted (docs/decisions/176-roles.md). */
export interface RoleHolders {
  users: number;
  apiKeys: number;
}

/** Custom roles (docs/api.md#roles); the built-in ones are code. */
export interface RoleStore {
  /** Every custom role, by name: there are few (bounded at creation). */
  all(): Promise<RoleRecord[]>;
  findByName(name: string): Promise<RoleRecord | undefined>;
  count(): Promise<number>;
  create(values: RoleInsert): Promise<RoleRecord>;
  update(id: number, patch: RolePatch): Promise<RoleRecord | undefined>;
  /**
   * Deletes the role unless a user or a key holds it, in one transaction. Resolves the holders
   * (none when it deleted the role), or undefined when there was no such role.
   */
  deleteUnlessHeld(id: number): Promise<RoleHolders | undefined>;
}
