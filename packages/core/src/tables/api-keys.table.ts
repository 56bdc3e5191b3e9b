import type { Generated, Selectable } from 'kysely';
import type { Scope } from '../scopes/scope.js';
import { columnsOf } from './columns.js';
import type { JsonText } from './json-text.js';

export interface ApiKeyTable {
  id: Generated<number>;
  name: string;
  key_hash: string;
  key_last4: string;
  /** The key's own scopes; `[]` when it carries a role instead. */
  scopes: JsonText<Scope[]>;
  /** The role whose scopes the key carries, read at each use; null when it carries its own scopes. */
  role: string | null;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  /** The user whose key tree this is; null for keys made by the system. Deleting the user deletes the key. */
  owner_user_id: number | null;
  /** The key that created this one; revoking it revokes this one too. */
  parent_key_id: number | null;
}

export const apiKeyColumns = columnsOf<Selectable<ApiKeyTable>>({
  id: true,
  name: true,
  key_hash: true,
  key_last4: true,
  scopes: true,
  role: true,
  created_at: true,
  expires_at: true,
  last_used_at: true,
  owner_user_id: true,
  parent_key_id: true,
});
