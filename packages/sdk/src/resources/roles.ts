import type { Call } from '../call.js';
import type { CallOptions, Role, RoleCollection, RoleCreate, RoleUpdate } from '../types.js';

/** The built-in roles and custom ones, by name (GET/POST /roles, GET/PUT/DELETE /roles/{role_name}). */
export interface RolesResource {
  /** Every role with its scopes, the built-in ones first; the list takes no parameters. */
  list(options?: CallOptions): Promise<RoleCollection>;
  /** Administrators only: a custom role, which users and keys then take as their `role`. */
  create(body: RoleCreate, options?: CallOptions): Promise<Role>;
  get(name: string, options?: CallOptions): Promise<Role>;
  /** Administrators only; a built-in role cannot change (409). Holders have the new scopes at their next request. */
  update(name: string, body: RoleUpdate, options?: CallOptions): Promise<Role>;
  /** Administrators only; a role a user or key holds is not deleted (409). */
  delete(name: string, options?: CallOptions): Promise<void>;
}

export function rolesResource(call: Call): RolesResource {
  const item = '/roles/{role_name}';
  return {
    list: (options = {}) => call('GET', '/roles', { signal: options.signal }) as Promise<RoleCollection>,
    create: (body, options = {}) => call('POST', '/roles', { body, signal: options.signal }) as Promise<Role>,
    get: (name, options = {}) => call('GET', item, { path: { role_name: name }, signal: options.signal }) as Promise<Role>,
    update: (name, body, options = {}) => call('PUT', item, { path: { role_name: name }, body, signal: options.signal }) as Promise<Role>,
    delete: async (name, options = {}) => {
      await call('DELETE', item, { path: { role_name: name }, signal: options.signal });
    },
  };
}
