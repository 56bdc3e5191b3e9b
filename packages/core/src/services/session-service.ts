import { randomBytes } from 'node:crypto';
import type { CoreDeps } from './core-deps.js';
import { auditResource, type AuditTrail } from './audit-trail.js';
import type { SessionRecord } from '../ports/storage.js';
import { DomainError } from '../errors/domain-error.js';
import { authorizeAdmin } from '../scopes/scope-check.js';
import { hasAdminRights, type Principal } from '../scopes/principal.js';
import { parseListQuery, type RawQuery } from '../list-query/parse-list-query.js';
import { sessionListSpec, type Session } from '../domain/session.js';

/** Where a sign-in came from, as its host saw it. */
export interface SessionClient {
  userAgent?: string | undefined;
  ip?: string | undefined;
}

const userAgentMax = 256;

/** The answer's shape of a stored session: everything it keeps, never a token (it keeps none). */
export const presentSession = (record: SessionRecord): Session => ({ ...record });

/**
 * Signed-in sessions (docs/decisions/179-sessions.md): each JWT and console sign-in is a stored
 * row its credential names, checked at every request, so a revoked session (or its user,
 * disabled or deleted) stops at its next request on every replica. A user sees and ends its
 * own; an admin (or an admin's key with `users` scopes) anyone's.
 */
export class SessionService {
  constructor(
    private readonly deps: CoreDeps,
    private readonly audit: AuditTrail,
    /** Drops what this process and the others remember of sessions (the console's few-second cache). */
    private readonly onSessionsChanged: () => void,
  ) {}

  /** Stores a new session of `userId` until `expiresAt`; expired ones are pruned on the way. */
  async start(userId: number, expiresAt: Date, client: SessionClient): Promise<SessionRecord> {
    const now = this.deps.clock().toISOString();
    await this.deps.storage.sessions.prune(now);
    return this.deps.storage.sessions.create({
      id: randomBytes(16).toString('base64url'),
      user_id: userId,
      created_at: now,
      last_used_at: now,
      expires_at: expiresAt.toISOString(),
      user_agent: client.userAgent?.slice(0, userAgentMax) ?? null,
      ip: client.ip ?? null,
    });
  }

  async list(principal: Principal, raw: RawQuery): Promise<{ count: number; sessions: Session[] }> {
    const query = parseListQuery(raw, sessionListSpec);
    const page = await this.deps.storage.sessions.list(query, this.deps.clock().toISOString(), this.seesAll(principal, 'index') ? undefined : ownId(principal));
    return { count: page.count, sessions: page.items.map(presentSession) };
  }

  /** Ends a session: its token or console sign-in is refused from its next request on. */
  async revoke(principal: Principal, id: string): Promise<void> {
    const session = await this.deps.storage.sessions.get(id);
    // Another user's session is "not found" to a caller who may not end it: ids are not probed.
    if (!session || (session.user_id !== ownIdOrNull(principal) && !this.seesAll(principal, 'update'))) throw DomainError.notFound('session', id);
    const user = await this.deps.storage.users.get(session.user_id);
    await this.audit.change(principal, async (stores) => ({
      result: await stores.sessions.delete(id),
      audit: { action: 'session_revoked', resource: auditResource('sessions', id, user?.username ?? null), changes: null },
    }));
    this.onSessionsChanged();
  }

  /** An admin user, or an admin's key holding `users / index` (list) or `users / update` (revoke). */
  private seesAll(principal: Principal, action: 'index' | 'update'): boolean {
    if (principal.kind === 'user') return hasAdminRights(principal);
    authorizeAdmin(principal, 'users', action, `${action === 'index' ? 'list' : 'end'} sessions`);
    return true;
  }
}

function ownIdOrNull(principal: Principal): number | null {
  return principal.kind === 'user' && principal.userId > 0 ? principal.userId : null;
}

function ownId(principal: Principal): number {
  const id = ownIdOrNull(principal);
  if (id === null) throw new DomainError('forbidden', 'sessions are a signed-in user’s', { details: { principal: [{ error: 'forbidden' }] } });
  return id;
}
