import type { Scope } from './scope.js';
import { readActions, scopeCatalogue, type ScopeController } from './scope-catalogue.js';

/**
 * The built-in roles (docs/decisions/176-roles.md, docs/api.md#roles). Each is a set of scopes
 * derived from the scope catalogue by controller and action, so an operation added later lands
 * in the roles that should hold it: a new read action of an inventory controller reaches the
 * viewer, a new write of a share reaches the operator, and no secret-revealing action
 * (`get_password`, explicit-only) reaches any role but admin.
 */
export const builtInRoleNames = ['admin', 'operator', 'auditor', 'viewer'] as const;
export type BuiltInRoleName = (typeof builtInRoleNames)[number];

/** Everything, secrets included: `* / get_password` because a `*` action never covers it. */
const everything: readonly Scope[] = [
  { controller: '*', action: '*' },
  { controller: '*', action: 'get_password' },
];

/** What a dashboard reads: the inventory and its status (not users, keys, settings or the audit log). */
const inventoryAndStatus: readonly ScopeController[] = ['nas', 'pools', 'nas_shares', 'jobs', 'schedules', 'alerts', 'statistics', 'metrics'];
/** What an operator runs and manages: the inventory, its jobs and schedules, its alerts, and its own keys. */
const operated: readonly ScopeController[] = ['nas', 'pools', 'nas_shares', 'jobs', 'schedules', 'alerts', 'api_keys'];
/** What an operator also reads: the trap targets, the agent's configuration, the alert settings and the silences (changing them is not its). */
const operatorAlsoReads: readonly ScopeController[] = ['traps', 'server_configuration', 'alert_settings', 'silences'];
/** Actions that reveal a secret: for the admin role only. */
const secretActions: ReadonlySet<string> = new Set(['get_password']);
const reading: ReadonlySet<string> = new Set(readActions);

function scopesWhere(keep: (controller: ScopeController, action: string) => boolean): Scope[] {
  return scopeCatalogue.flatMap(({ controller, actions }) =>
    (actions as readonly string[]).filter((action) => !secretActions.has(action) && keep(controller, action)).map((action) => ({ controller, action })),
  );
}

const viewer = scopesWhere((controller, action) => inventoryAndStatus.includes(controller) && reading.has(action));
const auditor = scopesWhere((_controller, action) => reading.has(action));
// `controller / *` covers every action of the controller but the explicit-only ones (get_password).
const operator: Scope[] = [
  ...operated.map((controller) => ({ controller, action: '*' })),
  ...scopesWhere(
    (controller, action) => !operated.includes(controller) && [...inventoryAndStatus, ...operatorAlsoReads].includes(controller) && reading.has(action),
  ),
];

export interface BuiltInRole {
  name: BuiltInRoleName;
  description: string;
  scopes: readonly Scope[];
}

export const builtInRoles: readonly BuiltInRole[] = [
  {
    name: 'admin',
    description: 'Everything, secrets included; the only role that manages users, roles, settings, CORS rules, channels and other users’ keys.',
    scopes: everything,
  },
  {
    name: 'operator',
    description:
      'Runs tests and scans; manages NAS, pools, shares, schedules, alerts and its own API keys; reads the inventory, its status, trap targets and alert settings. No secret.',
    scopes: operator,
  },
  { name: 'auditor', description: 'Reads everything, the audit log included; changes nothing and sees no secret.', scopes: auditor },
  { name: 'viewer', description: 'Reads the inventory and its status, for a dashboard: not the audit log, users, keys or settings.', scopes: viewer },
];

const byName: ReadonlyMap<string, BuiltInRole> = new Map(builtInRoles.map((role) => [role.name, role]));

export function builtInRole(name: string): BuiltInRole | undefined {
  return byName.get(name);
}

export function isBuiltInRoleName(name: string): name is BuiltInRoleName {
  return byName.has(name);
}

/** The scopes of the admin role: what the system principal (CLI, console host, scheduler) holds. */
export const adminScopes = everything;
