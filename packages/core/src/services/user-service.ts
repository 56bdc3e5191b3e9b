import { randomBytes } from 'node:crypto';
import type { CoreDeps } from './core-deps.js';
import { systemPrincipal, type Principal } from '../scopes/principal.js';
import { auditResource, describeChanges, type AuditTrail } from './audit-trail.js';
import type { User } from '../domain/user.js';
import type { UserRecord } from '../ports/storage.js';
import { parseInput } from '../validation/zod-details.js';
import { DomainError, isDomainError } from '../errors/domain-error.js';
import { authorizeAdmin, isAllowed } from '../scopes/scope-check.js';
import type { ScopeAction } from '../scopes/scope-catalogue.js';
import { userCreateSchema, userListSpec, userUpdateSchema } from '../domain/user.js';
import { parseListQuery, type RawQuery } from '../list-query/parse-list-query.js';
import { resolveRef } from './resolve-ref.js';
import { hasNoPassword } from '../security/no-password.js';
import type { RoleService } from './role-service.js';

/**
 * The role a body asks for (docs/decisions/176-roles.md): `role`, or the older `admin` (true:
 * admin; false: the current role when it is not admin, else operator). Both sent must agree.
 * Undefined when the body changes neither.
 */
function requestedRole(input: { admin?: boolean | undefined; role?: string | undefined }, current: Pick<User, 'role'> | undefined): string | undefined {
  const { admin, role } = input;
  if (role !== undefined) {
    if (admin !== undefined && admin !== (role === 'admin')) {
      throw new DomainError('validation', `admin must be ${role === 'admin'} with role ${role}: admin is true exactly for the role admin; send role alone`, {
        details: { admin: [{ error: 'invalid' }] },
      });
    }
    return role;
  }
  if (admin === true) return 'admin';
  if (admin === false) return current && current.role !== 'admin' ? current.role : 'operator';
  return current ? undefined : 'operator';
}

export function presentUser({ password_hash: _hidden, ...user }: UserRecord): User {
  return user;
}

/**
 * A user may hold the admin role, so changing users is admin-only through every path, and a key
 * also needs `* / *` to change them: a narrower key could otherwise mint itself an admin.
 * Reading them takes the scope (the auditor's role holds it).
 */
function authorizeUserAdmin(principal: Principal, action: ScopeAction<'users'>): void {
  authorizeAdmin(principal, 'users', action, `${action === 'index' || action === 'show' ? 'read' : action} users`);
  if (principal.kind === 'api_key' && action !== 'index' && action !== 'show' && !isAllowed(principal, '*', '*')) {
    throw new DomainError('forbidden', `an API key needs * / * to ${action} users (a user has full access)`, {
      details: { scope: [{ error: 'forbidden', value: '* / *' }] },
    });
  }
}

export class UserService {
  constructor(
    private readonly deps: CoreDeps,
    private readonly audit: AuditTrail,
    private readonly onCredentialsChanged: () => void,
    private readonly roles: Pick<RoleService, 'requireScopes'>,
  ) {}

  private resolve(ref: string): Promise<UserRecord> {
    const { users } = this.deps.storage;
    return resolveRef(
      ref,
      'user_id',
      (id) => users.get(id),
      (name) => users.findByUsername(name),
    );
  }

  /** In-process creation (CLI, first start) is the system's; no scope is checked here. */
  async add(input: { username: string; password: string; admin?: boolean; role?: string }, principal: Principal = systemPrincipal): Promise<User> {
    const { username, password, ...asked } = parseInput(userCreateSchema, input);
    const role = requestedRole(asked, undefined)!;
    await this.roles.requireScopes('role', role);
    // Hashed before the transaction: argon2 takes a core for a while, the write lock must not wait on it.
    const passwordHash = await this.deps.hasher.hash(password);
    return this.audit.change(principal, async (stores) => {
      const user = presentUser(await stores.users.create({ username, role, password_hash: passwordHash }));
      const sent = { username, admin: user.admin, role, password };
      return { result: user, audit: { action: 'create', resource: userAudit(user), changes: describeChanges(null, user, sent, userSecrets) } };
    });
  }

  /**
   * First start: creates `admin` when there is no user at all. Returns the generated
   * password when none was given, so the caller can print it once.
   */
  async ensureAdmin(password: string | undefined): Promise<{ created: boolean; generatedPassword?: string }> {
    if ((await this.deps.storage.users.count()) > 0) return { created: false };
    const generated = password ? undefined : randomBytes(18).toString('base64url');
    try {
      await this.add({ username: 'admin', password: password ?? generated!, admin: true });
    } catch (error) {
      // Replicas starting together on one empty database: another one created admin first.
      if (isDomainError(error) && error.code === 'conflict') return { created: false };
      throw error;
    }
    return generated ? { created: true, generatedPassword: generated } : { created: true };
  }

  async list(principal: Principal, raw: RawQuery): Promise<{ count: number; users: User[] }> {
    authorizeUserAdmin(principal, 'index');
    const page = await this.deps.storage.users.list(parseListQuery(raw, userListSpec));
    return { count: page.count, users: page.items.map(presentUser) };
  }

  async show(principal: Principal, ref: string): Promise<User> {
    authorizeUserAdmin(principal, 'show');
    return presentUser(await this.resolve(ref));
  }

  async create(principal: Principal, body: unknown): Promise<User> {
    authorizeUserAdmin(principal, 'create');
    const input = parseInput(userCreateSchema, body);
    return this.add(input, principal);
  }

  async update(principal: Principal, ref: string, body: unknown): Promise<User> {
    authorizeUserAdmin(principal, 'update');
    const { password, disabled, ...asked } = parseInput(userUpdateSchema, body);
    const current = await this.resolve(ref);
    if (password !== undefined && hasNoPassword(current.password_hash)) {
      throw new DomainError('validation', `${current.username} signs in through the OpenID provider and has no dms password`, {
        details: { password: [{ error: 'invalid' }] },
      });
    }
    if (disabled === true && principal.kind === 'user' && principal.userId === current.id) {
      throw new DomainError('conflict', 'you cannot disable yourself: ask another admin', { details: { disabled: [{ error: 'frozen' }] } });
    }
    const role = requestedRole(asked, current);
    if (role !== undefined) await this.roles.requireScopes('role', role);
    const passwordHash = password === undefined ? undefined : await this.deps.hasher.hash(password);
    const updated = await this.audit.change(principal, async (stores) => {
      if (role !== undefined && role !== current.role) {
        // Leaving the admin role takes the last-admin guard; any other change is a plain write.
        if (current.admin && role !== 'admin') {
          if (!(await stores.users.demoteUnlessLastAdmin(current.id, role))) throw lastAdmin(current, 'demote');
        } else await stores.users.setRole(current.id, role);
      }
      if (passwordHash !== undefined) await stores.users.updatePasswordHash(current.id, passwordHash);
      if (disabled !== undefined && disabled !== current.disabled) {
        await stores.users.setDisabled(current.id, disabled);
        // Ended, not paused: enabling the user again does not bring old sign-ins back.
        if (disabled) await stores.sessions.deleteForUser(current.id);
      }
      const user = presentUser((await stores.users.get(current.id)) ?? current);
      const sent = { admin: role === undefined ? undefined : role === 'admin', role, password };
      return {
        result: user,
        audit: {
          action: 'update',
          resource: userAudit(user),
          changes: describeChanges(presentUser(current), user, { ...sent, disabled }, userSecrets),
        },
      };
    });
    this.onCredentialsChanged();
    return updated;
  }

  async destroy(principal: Principal, ref: string): Promise<void> {
    authorizeUserAdmin(principal, 'destroy');
    const current = await this.resolve(ref);
    // Demoted first, in the same transaction that locks the admins it counts: two concurrent
    // demotions or deletions, here or on another replica, cannot both leave without an admin.
    await this.audit.change(principal, async (stores) => {
      if (current.admin && !(await stores.users.demoteUnlessLastAdmin(current.id, 'viewer'))) throw lastAdmin(current, 'delete');
      return { result: await stores.users.delete(current.id), audit: { action: 'delete', resource: userAudit(current), changes: null } };
    });
    this.onCredentialsChanged();
  }
}

const userAudit = (user: Pick<User, 'id' | 'username'>) => auditResource('users', user.id, user.username);
/** Recorded as changed, never with a value. */
const userSecrets = ['password'];

function lastAdmin(user: UserRecord, verb: string): DomainError {
  return new DomainError('conflict', `cannot ${verb} ${user.username}: it is the last admin`, {
    details: { admin: [{ error: 'frozen', count: 1 }] },
  });
}
