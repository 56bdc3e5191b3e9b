import type { Settings } from '../domain/settings.js';
import { oidcFallbackRole } from '../domain/oidc-settings.js';
import type { OidcClaims } from '../ports/oidc-relying-party.js';

/** When a user's claim maps to several roles, the one that can do most wins; custom roles after these. */
const rolePrecedence = ['admin', 'operator', 'auditor', 'viewer'];

/** A claim's value or values (a dotted name reaches into an object, as `realm_access.roles`). */
function claimValues(claims: OidcClaims, name: string): string[] {
  let value: unknown = claims[name];
  if (value === undefined && name.includes('.')) {
    value = name
      .split('.')
      .reduce<unknown>((inner, part) => (inner !== null && typeof inner === 'object' ? (inner as Record<string, unknown>)[part] : undefined), claims);
  }
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/**
 * The role the provider's claim maps to (docs/decisions/177-oidc-sign-in.md): each value of
 * `oidc_role_claim` looked up in `oidc_role_map`, the most able of the roles found kept; none
 * found is `viewer`. Undefined when no role claim is set: the user's role is then dms's to keep.
 */
export function mappedRole(claims: OidcClaims, settings: Pick<Settings, 'oidc_role_claim' | 'oidc_role_map'>): string | undefined {
  if (settings.oidc_role_claim === null) return undefined;
  const roles = claimValues(claims, settings.oidc_role_claim).flatMap((value) => {
    const role = Object.hasOwn(settings.oidc_role_map, value) ? settings.oidc_role_map[value] : undefined;
    return role === undefined ? [] : [role];
  });
  const rank = (role: string) => {
    const known = rolePrecedence.indexOf(role);
    return known === -1 ? rolePrecedence.length : known;
  };
  return roles.sort((a, b) => rank(a) - rank(b))[0] ?? oidcFallbackRole;
}
