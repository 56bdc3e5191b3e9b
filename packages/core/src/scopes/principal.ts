import type { Scope } from './scope.js';
import { adminScopes } from './built-in-roles.js';

/** Where a change came in: the host that took it, or the scheduler that made it (the audit log's `via`). */
export const auditVias = ['rest', 'cli', 'console', 'scheduler'] as const;
export type AuditVia = (typeof auditVias)[number];

/**
 * Where a call came in, as the audit log records it: the host (or the scheduler), and for
 * REST the client's address and the request id of its answer. Hosts set it where they make
 * the principal; a principal without one is taken as the CLI's.
 */
export interface CallOrigin {
  via: AuditVia;
  clientAddress?: string;
  requestId?: string;
}

/**
 * Who is calling. A user (Basic, JWT, console session) holds its role's scopes, read at each
 * request (docs/decisions/176-roles.md); users of the `admin` role also change users, roles,
 * settings, CORS rules, channels and every key. API keys carry scopes (or a role's), bounded by
 * the keys that created them and by the current role of the user whose key tree they belong to.
 */
export type Principal = UserPrincipal | ApiKeyPrincipal;

export interface UserPrincipal {
  kind: 'user';
  userId: number;
  username: string;
  /** The user's role, by name. */
  role: string;
  /** True exactly for the role `admin`. */
  admin: boolean;
  /** The role's scopes, as they are now. */
  scopes: readonly Scope[];
  origin?: CallOrigin;
}

export interface ApiKeyPrincipal {
  kind: 'api_key';
  keyId: number;
  name: string;
  scopes: readonly Scope[];
  /**
   * Scopes of the keys that created this one, nearest first, then its owner's role's: the key
   * grants only what all of them hold.
   */
  lineage: readonly (readonly Scope[])[];
  /** The user the key tree belongs to; null for keys made by the system (CLI, console). */
  ownerUserId: number | null;
  /** Whether that owner is an admin now (the system is): read at use time, not at creation. */
  ownerAdmin: boolean;
  /** Epoch ms of the earliest expiry along the lineage, null when none expires. */
  expiresAt: number | null;
  origin?: CallOrigin;
}

/** The in-process principal of the CLI and the desktop console's own operations. */
export const systemPrincipal: Principal = { kind: 'user', userId: 0, username: 'system', role: 'admin', admin: true, scopes: adminScopes };

/**
 * Who runs a schedule's jobs: the service itself, named `scheduler` in GET /jobs and the audit
 * log, with bounds of its own (JobService's requester key), so scheduled runs never spend a
 * user's budget.
 */
export const schedulerPrincipal: UserPrincipal = {
  kind: 'user',
  userId: 0,
  username: 'scheduler',
  role: 'admin',
  admin: true,
  scopes: adminScopes,
  origin: { via: 'scheduler' },
};

/** The same principal, as it called from `origin`. */
export function calledFrom<P extends Principal>(principal: P, origin: CallOrigin): P {
  return { ...principal, origin };
}

/** The user id that owns what this principal creates; null for the system. */
export function ownerUserIdOf(principal: Principal): number | null {
  if (principal.kind === 'api_key') return principal.ownerUserId;
  // Stored users have ids from 1; the system principal's 0 owns nothing in storage.
  return principal.userId > 0 ? principal.userId : null;
}

/** Admin rights: an admin user, or a key whose owner is an admin (or the system). */
export function hasAdminRights(principal: Principal): boolean {
  return principal.kind === 'user' ? principal.admin : principal.ownerAdmin;
}
