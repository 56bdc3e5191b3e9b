import { api, type Outputs } from '../../trpc-client.js';

export type Role = Outputs['roles']['list']['roles'][number];

/** The roles as a select's options: the name, and what it is for (a custom role's scope count when it says nothing). */
export function roleOptions(roles: readonly Role[]): Array<readonly [string, string]> {
  return roles.map((role) => [role.name, `${role.name}: ${role.description ?? `${role.scopes.length} scope${role.scopes.length === 1 ? '' : 's'}`}`] as const);
}

export const loadRoles = () => api.roles.list.query();
