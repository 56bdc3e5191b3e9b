/**
 * The controllers and actions an API key's scope can name: every pair a service checks. The
 * checks are typed by it (`authorize` takes only these pairs), so it cannot drift from them;
 * the console's scope picker and the REST reference read it. `*` matches any controller, or
 * any action but the explicit-only ones.
 */
export const scopeCatalogue = [
  { controller: 'nas', actions: ['index', 'show', 'create', 'update', 'destroy'] },
  { controller: 'pools', actions: ['index', 'show', 'create', 'update', 'destroy'] },
  // get_password must be granted literally: a `*` action does not cover it (docs/decisions/041-scopes.md).
  { controller: 'nas_shares', actions: ['index', 'show', 'create', 'update', 'destroy', 'test', 'scan', 'get_password'] },
  // get_password here reveals a v3 target's passphrases, granted literally as the share's.
  { controller: 'traps', actions: ['index', 'show', 'create', 'update', 'destroy', 'test', 'get_password'] },
  // get_password here reveals the agent's community, to a key of an admin owner (docs/decisions/051-agent-community-is-a-credential.md).
  { controller: 'server_configuration', actions: ['show', 'update', 'get_password'] },
  { controller: 'api_keys', actions: ['index', 'show', 'create', 'update', 'destroy'] },
  // Jobs are started through their share (nas_shares / test, scan); these read them back.
  { controller: 'jobs', actions: ['index', 'show'] },
  { controller: 'schedules', actions: ['index', 'show', 'create', 'update', 'destroy'] },
  { controller: 'alerts', actions: ['index', 'show', 'update'] },
  { controller: 'statistics', actions: ['show'] },
  // Admin-only areas: a key also needs an admin owner for these.
  { controller: 'users', actions: ['index', 'show', 'create', 'update', 'destroy'] },
  // Custom roles (docs/decisions/176-roles.md): reading them is a scope; changing them is an admin's.
  { controller: 'roles', actions: ['index', 'show', 'create', 'update', 'destroy'] },
  { controller: 'cors_rules', actions: ['index', 'show', 'create', 'update', 'destroy'] },
  { controller: 'settings', actions: ['show', 'update'] },
  { controller: 'audit_events', actions: ['index'] },
  { controller: 'alert_settings', actions: ['index', 'update'] },
  // A channel holds credentials and decides where dms tells what it knows (docs/decisions/166-notification-channels.md).
  { controller: 'notification_channels', actions: ['index', 'show', 'create', 'update', 'destroy', 'test'] },
  // A silence mutes what every channel is told: read with the scope, changed by admins (docs/decisions/171-silences.md).
  { controller: 'silences', actions: ['index', 'show', 'create', 'update', 'destroy'] },
  { controller: 'metrics', actions: ['index'] },
] as const satisfies ReadonlyArray<{ controller: string; actions: readonly string[] }>;

/** The actions that only read: the built-in roles that change nothing hold these (docs/decisions/176-roles.md). */
export const readActions = ['index', 'show'] as const;

/** The actions that a `*` action does not cover: they must be granted literally. */
export const explicitOnlyActions = ['get_password'] as const;

export type ScopeController = (typeof scopeCatalogue)[number]['controller'];
/** The actions a check may name under one controller. */
export type ScopeAction<C extends ScopeController> = Extract<(typeof scopeCatalogue)[number], { controller: C }>['actions'][number];
