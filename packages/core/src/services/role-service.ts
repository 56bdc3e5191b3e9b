import type { CoreDeps } from './core-deps.js';
import type { Principal } from '../scopes/principal.js';
import type { RoleRecord } from '../ports/role-store.js';
import type { Scope } from '../scopes/scope.js';
import { formatScope } from '../scopes/scope.js';
import { authorizeAdmin, scopesBeyondReach } from '../scopes/scope-check.js';
import type { ScopeAction } from '../scopes/scope-catalogue.js';
import { builtInRole, builtInRoleNames, builtInRoles, isBuiltInRoleName } from '../scopes/built-in-roles.js';
import { parseInput } from '../validation/zod-details.js';
import { DomainError } from '../errors/domain-error.js';
import { maxCustomRoles, roleCreateSchema, roleUpdateSchema, type RoleView } from '../domain/role.js';
import { auditResource, describeChanges, type AuditTrail } from './audit-trail.js';

const roleAudit = (role: Pick<RoleRecord, 'id' | 'name'>) => auditResource('roles', role.id, role.name);

function presentCustom(record: RoleRecord): RoleView {
  return { name: record.name, builtin: false, description: record.description, scopes: record.scopes };
}

const presentedBuiltIns: readonly RoleView[] = builtInRoles.map((role) => ({
  name: role.name,
  builtin: true,
  description: role.description,
  scopes: [...role.scopes],
}));

function builtInIsReadOnly(name: string, verb: string): DomainError {
  return new DomainError('conflict', `${name} is a built-in role and cannot be ${verb}; create a custom role with the scopes you want instead`, {
    details: { name: [{ error: 'frozen', value: name }] },
  });
}

/** A role must exist to be given to a user or a key: refused naming the roles there are. */
export function unknownRole(field: string, name: string, known: readonly string[]): DomainError {
  return new DomainError('validation', `${field} must be one of ${known.join(', ')}; there is no role ${JSON.stringify(name)}`, {
    details: { [field]: [{ error: 'not_found', value: name }] },
  });
}

/**
 * `/roles` (docs/api.md#roles, docs/decisions/176-roles.md): the built-in roles, read-only, and
 * custom ones. Reading takes `roles / index|show`; changing is an admin's, and a role never holds
 * a scope its creator does not.
 */
export class RoleService {
  constructor(
    private readonly deps: CoreDeps,
    private readonly audit: AuditTrail,
    private readonly onCredentialsChanged: () => void,
  ) {}

  #authorize(principal: Principal, action: ScopeAction<'roles'>): void {
    authorizeAdmin(principal, 'roles', action, 'manage roles');
  }

  async #custom(name: string): Promise<RoleRecord> {
    const record = await this.deps.storage.roles.findByName(name);
    if (!record) throw DomainError.notFound('role', name);
    return record;
  }

  /** The names of every role, built-in first: what a user's or key's `role` may be. */
  async names(): Promise<string[]> {
    return [...builtInRoleNames, ...(await this.deps.storage.roles.all()).map((role) => role.name)];
  }

  /** Refuses (422 on `field`) a role that does not exist; resolves its scopes now. */
  async requireScopes(field: string, name: string): Promise<readonly Scope[]> {
    const builtIn = builtInRole(name);
    if (builtIn) return builtIn.scopes;
    const record = await this.deps.storage.roles.findByName(name);
    if (!record) throw unknownRole(field, name, await this.names());
    return record.scopes;
  }

  async list(principal: Principal): Promise<{ count: number; roles: RoleView[] }> {
    this.#authorize(principal, 'index');
    const roles = [...presentedBuiltIns, ...(await this.deps.storage.roles.all()).map(presentCustom)];
    return { count: roles.length, roles };
  }

  async show(principal: Principal, name: string): Promise<RoleView> {
    this.#authorize(principal, 'show');
    const builtIn = presentedBuiltIns.find((role) => role.name === name);
    return builtIn ?? presentCustom(await this.#custom(name));
  }

  async create(principal: Principal, body: unknown): Promise<RoleView> {
    this.#authorize(principal, 'create');
    const input = parseInput(roleCreateSchema, body);
    if (isBuiltInRoleName(input.name)) throw DomainError.taken('name', input.name, `name ${input.name} is a built-in role's; choose another name`);
    assertWithinReach(principal, input.scopes);
    if ((await this.deps.storage.roles.count()) >= maxCustomRoles) {
      throw new DomainError('conflict', `there are already ${maxCustomRoles} custom roles, the most dms keeps: delete one first`, {
        details: { name: [{ error: 'less_than_or_equal_to', count: maxCustomRoles }] },
      });
    }
    const values = { name: input.name, description: input.description ?? null, scopes: input.scopes };
    const created = await this.audit.change(principal, async (stores) => {
      const record = await stores.roles.create(values);
      return { result: record, audit: { action: 'create', resource: roleAudit(record), changes: describeChanges(null, record, input) } };
    });
    return presentCustom(created);
  }

  async update(principal: Principal, name: string, body: unknown): Promise<RoleView> {
    this.#authorize(principal, 'update');
    if (isBuiltInRoleName(name)) throw builtInIsReadOnly(name, 'changed');
    const input = parseInput(roleUpdateSchema, body);
    const current = await this.#custom(name);
    if (input.scopes) assertWithinReach(principal, input.scopes);
    const updated = await this.audit.change(principal, async (stores) => {
      const record = await stores.roles.update(current.id, input);
      if (!record) throw DomainError.notFound('role', name);
      return { result: record, audit: { action: 'update', resource: roleAudit(record), changes: describeChanges(current, record, input) } };
    });
    // Its holders' rights change at their next request.
    this.onCredentialsChanged();
    return presentCustom(updated);
  }

  async destroy(principal: Principal, name: string): Promise<void> {
    this.#authorize(principal, 'destroy');
    if (isBuiltInRoleName(name)) throw builtInIsReadOnly(name, 'deleted');
    const current = await this.#custom(name);
    await this.audit.change(principal, async (stores) => {
      const holders = await stores.roles.deleteUnlessHeld(current.id);
      if (!holders) throw DomainError.notFound('role', name);
      if (holders.users > 0 || holders.apiKeys > 0) {
        throw new DomainError('conflict', `role ${name} is held by ${holders.users} user(s) and ${holders.apiKeys} API key(s): give them another role first`, {
          details: { role: [{ error: 'frozen', count: holders.users + holders.apiKeys }] },
        });
      }
      return { result: true, audit: { action: 'delete', resource: roleAudit(current), changes: null } };
    });
  }
}

/** A role never holds a scope its creator cannot grant (a key of an admin with fewer scopes, say). */
function assertWithinReach(principal: Principal, scopes: readonly Scope[]): void {
  const beyond = scopesBeyondReach(principal, scopes);
  if (beyond.length === 0) return;
  throw new DomainError('forbidden', `a role cannot hold scopes its creator does not: ${beyond.map(formatScope).join(', ')}`, {
    details: { scopes: beyond.map((scope) => ({ error: 'forbidden' as const, value: formatScope(scope) })) },
  });
}
