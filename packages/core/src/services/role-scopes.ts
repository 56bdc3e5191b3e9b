import type { Stores, UserRecord } from '../ports/storage.js';
import type { UserPrincipal } from '../scopes/principal.js';
import type { Scope } from '../scopes/scope.js';
import { builtInRole } from '../scopes/built-in-roles.js';

/**
 * A role's scopes as they are now: a built-in's from code, a custom role's from storage. A role
 * that no longer exists grants nothing (deleting a held role is refused, docs/decisions/176-roles.md,
 * so only a race leaves one behind, and it fails closed).
 */
export async function roleScopes(stores: Pick<Stores, 'roles'>, name: string): Promise<readonly Scope[]> {
  const builtIn = builtInRole(name);
  if (builtIn) return builtIn.scopes;
  return (await stores.roles.findByName(name))?.scopes ?? [];
}

/** The principal a stored user stands for, with its role's scopes read now. */
export async function userPrincipalOf(stores: Pick<Stores, 'roles'>, user: UserRecord): Promise<UserPrincipal> {
  return { kind: 'user', userId: user.id, username: user.username, role: user.role, admin: user.admin, scopes: await roleScopes(stores, user.role) };
}
