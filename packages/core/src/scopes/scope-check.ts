import { DomainError } from '../errors/domain-error.js';
import type { Scope } from '../domain/api-key.js';
import type { Principal } from './principal.js';

/** The action that a `*` action does not cover: it must be granted literally. */
export const explicitOnlyActions = new Set(['get_password']);

export function scopeCovers(scope: Scope, controller: string, action: string): boolean {
  const controllerOk = scope.controller === '*' || scope.controller === controller;
  if (!controllerOk) return false;
  if (explicitOnlyActions.has(action)) return scope.action === action;
  return scope.action === '*' || scope.action === action;
}

export function isAllowed(principal: Principal, controller: string, action: string): boolean {
  if (principal.kind === 'user') return true;
  return principal.scopes.some((scope) => scopeCovers(scope, controller, action));
}

export function authorize(principal: Principal, controller: string, action: string): void {
  if (!isAllowed(principal, controller, action)) {
    throw new DomainError('forbidden', `missing scope ${controller} / ${action}`, {
      details: { scope: [{ error: 'forbidden', value: `${controller} / ${action}` }] },
    });
  }
}

/** DESIGN §5.5: users always see passwords; a key only through a literal get_password action. */
export function canSeeSharePassword(principal: Principal): boolean {
  return isAllowed(principal, 'nas_shares', 'get_password');
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
