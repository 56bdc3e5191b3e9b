import type { ApiKeyRecord, Storage } from '../ports/storage.js';
import type { ApiKeyPrincipal } from '../scopes/principal.js';
import type { Scope } from '../scopes/scope.js';
import { roleScopes } from './role-scopes.js';

type LineageStores = Pick<Storage, 'apiKeys' | 'users' | 'roles'>;

/** What a key itself carries: its own scopes, or its role's as they are now (docs/decisions/176-roles.md). */
export async function keyScopes(storage: Pick<Storage, 'roles'>, key: Pick<ApiKeyRecord, 'scopes' | 'role'>): Promise<readonly Scope[]> {
  return key.role === null ? key.scopes : await roleScopes(storage, key.role);
}

/** Keys may create keys up to this depth; deeper chains are refused at creation. */
export const maxKeyLineageDepth = 8;

function earlier(a: number | null, b: string | null): number | null {
  if (b === null) return a;
  const at = Date.parse(b);
  return a === null ? at : Math.min(a, at);
}

/**
 * The principal a key stands for, evaluated now (docs/decisions/040-key-lineage.md): its scopes bounded by every
 * key above it and by its owner's current role (docs/decisions/176-roles.md), its expiry the
 * earliest along the chain, and its owner's current admin flag. Undefined when a key above it or
 * its owner no longer exists.
 */
export async function keyPrincipal(storage: LineageStores, key: ApiKeyRecord): Promise<ApiKeyPrincipal | undefined> {
  const lineage: (readonly Scope[])[] = [];
  let expiresAt = earlier(null, key.expires_at);
  let parentId = key.parent_key_id;
  while (parentId !== null) {
    if (lineage.length >= maxKeyLineageDepth) return undefined;
    const parent = await storage.apiKeys.get(parentId);
    if (!parent) return undefined;
    lineage.push(await keyScopes(storage, parent));
    expiresAt = earlier(expiresAt, parent.expires_at);
    parentId = parent.parent_key_id;
  }
  let ownerAdmin = true;
  if (key.owner_user_id !== null) {
    const owner = await storage.users.get(key.owner_user_id);
    // A disabled owner's keys stop with its sessions (docs/decisions/179-sessions.md).
    if (!owner || owner.disabled) return undefined;
    ownerAdmin = owner.admin;
    lineage.push(await roleScopes(storage, owner.role));
  }
  const scopes = await keyScopes(storage, key);
  return { kind: 'api_key', keyId: key.id, name: key.name, scopes, lineage, ownerUserId: key.owner_user_id, ownerAdmin, expiresAt };
}
