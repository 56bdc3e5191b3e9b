import { DomainError } from '../errors/domain-error.js';
import type { Scope } from './scope.js';
import { hasAdminRights, type Principal } from './principal.js';
import { explicitOnlyActions as explicitOnlyList, readActions, type ScopeAction, type ScopeController } from './scope-catalogue.js';

const explicitOnlyActions: ReadonlySet<string> = new Set(explicitOnlyList);

export function scopeCovers(scope: Scope, controller: string, action: string): boolean {
  const controllerOk = scope.controller === '*' || scope.controller === controller;
  if (!controllerOk) return false;
  if (explicitOnlyActions.has(action)) return scope.action === action;
  return scope.action === '*' || scope.action === action;
}

function someCovers(scopes: readonly Scope[], controller: string, action: string): boolean {
  return scopes.some((scope) => scopeCovers(scope, controller, action));
}

/**
 * A user holds its role's scopes; a key grants what its own scopes and every key above it in its
 * lineage (then its owner's role) all grant.
 */
export function isAllowed(principal: Principal, controller: string, action: string): boolean {
  if (principal.kind === 'user') return someCovers(principal.scopes, controller, action);
  return someCovers(principal.scopes, controller, action) && principal.lineage.every((held) => someCovers(held, controller, action));
}

/** Refuses a principal without the scope; the pair must be one of the scope catalogue's. */
export function authorize<C extends ScopeController>(principal: Principal, controller: C, action: ScopeAction<C>): void {
  if (!isAllowed(principal, controller, action)) {
    throw new DomainError('forbidden', `missing scope ${controller} / ${action}`, {
      details: { scope: [{ error: 'forbidden', value: `${controller} / ${action}` }] },
    });
  }
}

const reads: ReadonlySet<string> = new Set(readActions);

/**
 * Admin areas (users, roles, settings, CORS rules, channels): reading takes the scope (an
 * auditor's role holds it, docs/decisions/176-roles.md); changing also takes admin rights
 * through every path: a user of the admin role, or a key whose owning user is one now.
 */
export function authorizeAdmin<C extends ScopeController>(principal: Principal, controller: C, action: ScopeAction<C>, what: string): void {
  authorize(principal, controller, action);
  if (reads.has(action) || hasAdminRights(principal)) return;
  const message = principal.kind === 'user' ? `only an admin user may ${what}` : `only a key created by an admin user may ${what}`;
  throw new DomainError('forbidden', message, { details: { admin: [{ error: 'forbidden' }] } });
}

/** docs/decisions/041-scopes.md: a key, or a user's role, only through a literal get_password action (the admin role holds it). */
export function canSeeSharePassword(principal: Principal): boolean {
  return isAllowed(principal, 'nas_shares', 'get_password');
}

/** A v3 trap target's passphrases: as share passwords (docs/decisions/041-scopes.md), `traps / get_password` literally for a key. */
export function canSeeTrapPassphrases(principal: Principal): boolean {
  return isAllowed(principal, 'traps', 'get_password');
}

/**
 * The SNMP agent's community is the service's own credential, not a resource's: an admin user
 * sees it; a key only when its owner is an admin now and it holds `server_configuration /
 * get_password` literally (as share passwords, docs/decisions/041-scopes.md). Anyone who may update the
 * configuration may still set it, without reading the one in use.
 */
export function canSeeAgentCommunity(principal: Principal): boolean {
  return hasAdminRights(principal) && isAllowed(principal, 'server_configuration', 'get_password');
}

/** True when every scope of `requested` is covered by one of `held` (no key widens a key). */
export function scopesWithin(requested: readonly Scope[], held: readonly Scope[]): boolean {
  return requested.every((wanted) =>
    held.some((have) => {
      const controllerOk = have.controller === '*' || have.controller === wanted.controller;
      if (!controllerOk) return false;
      if (have.action === wanted.action) return true;
      return have.action === '*' && wanted.action !== '*' && !explicitOnlyActions.has(wanted.action);
    }),
  );
}

/**
 * The requested scopes a principal cannot grant: for a key, those beyond itself or its lineage.
 * None for a user: its keys' lineage ends with its role, read at each use (docs/decisions/176-roles.md),
 * so a user's `* / *` key does what the user's role allows, now and after the role changes.
 */
export function scopesBeyondReach(principal: Principal, requested: readonly Scope[]): Scope[] {
  if (principal.kind === 'user') return [];
  return requested.filter((scope) => ![principal.scopes, ...principal.lineage].every((held) => scopesWithin([scope], held)));
}
