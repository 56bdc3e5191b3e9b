import type { CoreDeps } from './core-deps.js';
import { auditResource, describeChanges, type AuditTrail } from './audit-trail.js';

/** A key by id and name; never its token, which only its create answer ever holds. */
const keyAudit = (key: Pick<ApiKeyRecord, 'id' | 'name'>) => auditResource('api_keys', key.id, key.name);
import type { Principal } from '../scopes/principal.js';
import type { ApiKeyRecord } from '../ports/storage.js';
import { formatScope, type Scope } from '../scopes/scope.js';
import { parseInput } from '../validation/zod-details.js';
import { DomainError } from '../errors/domain-error.js';
import { generateApiKeyToken, hashApiKeyToken } from '../security/api-key-token.js';
import { apiKeyCreateSchema, apiKeyListSpec, apiKeyUpdateSchema, type ApiKeyView } from '../domain/api-key.js';
import { parseListQuery, type RawQuery } from '../list-query/parse-list-query.js';
import { authorize, scopesBeyondReach } from '../scopes/scope-check.js';
import { hasAdminRights, ownerUserIdOf } from '../scopes/principal.js';
import { keyPrincipal, keyScopes, maxKeyLineageDepth } from './api-key-lineage.js';
import type { RoleService } from './role-service.js';
import { findByNumericId } from './resolve-ref.js';
import type { SettingsService } from './settings-service.js';

/** A key as answers show it; `scopes` is what it carries (a role's, for a key with a role). */
export function presentApiKey(record: ApiKeyRecord, scopes: readonly Scope[] = record.scopes): ApiKeyView {
  return {
    id: record.id,
    name: record.name,
    masked_key: `dms_…${record.key_last4}`,
    api_key_scopes: [...scopes],
    role: record.role,
    created_at: record.created_at,
    expires_at: record.expires_at,
    last_used_at: record.last_used_at,
  };
}

function bothCarried(): DomainError {
  return new DomainError('validation', "send either role or api_key_scopes, not both: a key carries a role's scopes or its own", {
    details: { api_key_scopes: [{ error: 'invalid' }] },
  });
}

/** A key may only hand out scopes that it and every key above it hold (users hold all). */
function assertGrantable(principal: Principal, scopes: readonly Scope[]): void {
  const beyond = scopesBeyondReach(principal, scopes);
  if (beyond.length === 0) return;
  throw new DomainError('forbidden', `an API key cannot grant scopes it does not hold: ${beyond.map(formatScope).join(', ')}`, {
    details: { api_key_scopes: beyond.map((scope) => ({ error: 'forbidden' as const, value: formatScope(scope) })) },
  });
}

/**
 * docs/decisions/040-key-lineage.md: a key expires no later than the key that sets its expiry. A key caller
 * that expires cannot give (itself or another key) a later expiry, nor none at all.
 */
function expiryWithinCaller(principal: Principal, expiresAt: string | null | undefined): string | null | undefined {
  if (principal.kind === 'user' || principal.expiresAt === null || expiresAt === undefined) return expiresAt;
  if (expiresAt !== null && Date.parse(expiresAt) <= principal.expiresAt) return expiresAt;
  const latest = new Date(principal.expiresAt).toISOString();
  throw new DomainError('validation', `expires_at must be no later than ${latest}, when the calling key expires`, {
    details: { expires_at: [{ error: 'less_than_or_equal_to', value: latest }] },
  });
}

/** A key born (or set to be) expired could only fail: say so now rather than at its first use. */
function assertLaterThanNow(expiresAt: string | null | undefined, now: Date): void {
  if (expiresAt == null || Date.parse(expiresAt) > now.getTime()) return;
  throw new DomainError('validation', `expires_at must be later than now (${now.toISOString()})`, {
    details: { expires_at: [{ error: 'greater_than_or_equal_to', value: now.toISOString() }] },
  });
}

/**
 * A key cannot hand out more lifetime than it has (security round 2, L1): an expiring key may
 * change another key (a sibling of the same owner, say, giving it its own scopes) only if that
 * key then ends no later than the caller. `effectiveExpiry` is the target's earliest expiry
 * along its own lineage after the change, in epoch ms, null when it never expires.
 */
function assertOutlivesNothing(principal: Principal, target: ApiKeyRecord, effectiveExpiry: number | null): void {
  if (principal.kind === 'user' || principal.expiresAt === null) return;
  if (effectiveExpiry !== null && effectiveExpiry <= principal.expiresAt) return;
  const latest = new Date(principal.expiresAt).toISOString();
  const lasts = effectiveExpiry === null ? 'never expires' : `expires at ${new Date(effectiveExpiry).toISOString()}`;
  throw new DomainError(
    'validation',
    `API key ${target.id} ${lasts}, later than the calling key (${latest}): a key may only change keys that end no later than itself; send expires_at of ${latest} or earlier with the change`,
    {
      details: { expires_at: [{ error: 'less_than_or_equal_to', value: latest }] },
    },
  );
}

/**
 * 409: the request conflicts with what the owner already holds, as deleting a NAS that still has
 * shares does; revoking a key (or a higher setting) resolves it, waiting does not (so not 429).
 */
function keyCapReached(principal: Principal, cap: number): DomainError {
  const whose = principal.kind === 'user' ? `user ${principal.username}` : 'the user this key belongs to';
  return new DomainError(
    'conflict',
    `${whose} already holds ${cap} API keys (keys made by its keys included), the most the setting api_keys_max_per_user allows: revoke one, or ask an admin to raise the setting`,
    {
      details: { api_keys_max_per_user: [{ error: 'less_than_or_equal_to', count: cap }] },
    },
  );
}

export class ApiKeyService {
  constructor(
    private readonly deps: CoreDeps,
    private readonly audit: AuditTrail,
    private readonly onCredentialsChanged: () => void,
    private readonly settings: Pick<SettingsService, 'current'>,
    private readonly roles: Pick<RoleService, 'requireScopes'>,
  ) {}

  async #present(record: ApiKeyRecord): Promise<ApiKeyView> {
    return presentApiKey(record, await keyScopes(this.deps.storage, record));
  }

  /**
   * What a body asks the key to carry (docs/decisions/176-roles.md): a role (its scopes now) or
   * scopes of its own. A body with a role may also hold the role's scopes as answers show them
   * (a GET body sent back); other scopes beside a role are refused. Undefined: no change.
   */
  async #carried(
    input: { api_key_scopes?: Scope[] | undefined; role?: string | null | undefined },
    current: ApiKeyRecord | undefined,
  ): Promise<{ role: string | null; scopes: Scope[]; effective: readonly Scope[] } | undefined> {
    const { api_key_scopes: scopes, role } = input;
    if (role != null) {
      const effective = await this.roles.requireScopes('role', role);
      if (scopes !== undefined && (current === undefined || JSON.stringify(scopes) !== JSON.stringify(effective))) throw bothCarried();
      return { role, scopes: [], effective };
    }
    if (scopes !== undefined) return { role: null, scopes, effective: scopes };
    if (current === undefined || (role === null && current.role !== null)) {
      throw new DomainError('validation', 'send exactly one of api_key_scopes (the scopes the key holds) and role (a role whose scopes it holds)', {
        details: { api_key_scopes: [{ error: 'blank' }] },
      });
    }
    return undefined;
  }

  /** Other users' keys are admin-only: without admin rights, a key of another owner is 404. */
  private async get(principal: Principal, ref: string): Promise<ApiKeyRecord> {
    const record = await findByNumericId(ref, 'api_key_id', (id) => this.deps.storage.apiKeys.get(id));
    if (!hasAdminRights(principal) && record.owner_user_id !== ownerUserIdOf(principal)) throw DomainError.notFound('api_key_id', ref);
    return record;
  }

  /** The token is in this answer and never again; only its SHA-256 is stored. */
  async create(principal: Principal, body: unknown): Promise<ApiKeyView & { key: string }> {
    authorize(principal, 'api_keys', 'create');
    const input = parseInput(apiKeyCreateSchema, body);
    const carried = (await this.#carried(input, undefined))!;
    assertGrantable(principal, carried.effective);
    if (principal.kind === 'api_key' && principal.lineage.length + 1 >= maxKeyLineageDepth) {
      throw new DomainError('forbidden', `keys may create keys at most ${maxKeyLineageDepth} levels deep; create this key as a user`, {
        details: { api_key_scopes: [{ error: 'forbidden', count: maxKeyLineageDepth }] },
      });
    }
    const now = this.deps.clock();
    assertLaterThanNow(input.expires_at, now);
    // A child of an expiring key that names no expiry takes its creator's.
    const inherited =
      principal.kind === 'api_key' && principal.expiresAt !== null && input.expires_at == null ? new Date(principal.expiresAt).toISOString() : input.expires_at;
    const token = generateApiKeyToken();
    const owner = ownerUserIdOf(principal);
    const cap = (await this.settings.current()).api_keys_max_per_user;
    const record = await this.audit.change(principal, async (stores) => {
      const created = await stores.apiKeys.createWithinOwnerCap(
        {
          name: input.name,
          key_hash: hashApiKeyToken(token),
          key_last4: token.slice(-4),
          scopes: carried.scopes,
          role: carried.role,
          created_at: now.toISOString(),
          expires_at: expiryWithinCaller(principal, inherited) ?? null,
          owner_user_id: owner,
          parent_key_id: principal.kind === 'api_key' ? principal.keyId : null,
        },
        cap,
      );
      if (!created) throw keyCapReached(principal, cap);
      const view = presentApiKey(created, carried.effective);
      return { result: created, audit: { action: 'key_created', resource: keyAudit(created), changes: describeChanges(null, view, input) } };
    });
    return { ...presentApiKey(record, carried.effective), key: token };
  }

  async list(principal: Principal, raw: RawQuery): Promise<{ count: number; api_keys: ApiKeyView[] }> {
    authorize(principal, 'api_keys', 'index');
    const query = parseListQuery(raw, apiKeyListSpec);
    if (!hasAdminRights(principal)) query.filters.push({ field: 'owner_user_id', op: 'eq', values: [ownerUserIdOf(principal)] });
    const page = await this.deps.storage.apiKeys.list(query);
    return { count: page.count, api_keys: await Promise.all(page.items.map((record) => this.#present(record))) };
  }

  async show(principal: Principal, ref: string): Promise<ApiKeyView> {
    authorize(principal, 'api_keys', 'show');
    return this.#present(await this.get(principal, ref));
  }

  async update(principal: Principal, ref: string, body: unknown): Promise<ApiKeyView> {
    authorize(principal, 'api_keys', 'update');
    const { api_key_scopes: _scopes, role: _role, expires_at, ...rest } = parseInput(apiKeyUpdateSchema, body);
    const current = await this.get(principal, ref);
    const carried = await this.#carried({ api_key_scopes: _scopes, role: _role }, current);
    // Changing any key, even renaming it, is limited to keys within the caller's own reach,
    // before and after the change.
    const before = await keyScopes(this.deps.storage, current);
    assertGrantable(principal, before);
    if (carried) assertGrantable(principal, carried.effective);
    assertLaterThanNow(expires_at, this.deps.clock());
    const expiry = expiryWithinCaller(principal, expires_at);
    if (principal.kind === 'api_key' && principal.expiresAt !== null) {
      const after = await keyPrincipal(this.deps.storage, { ...current, expires_at: expiry === undefined ? current.expires_at : expiry });
      // A key whose lineage or owner is gone cannot be used at all: nothing to outlive.
      if (after) assertOutlivesNothing(principal, current, after.expiresAt);
    }
    const updated = await this.audit.change(principal, async (stores) => {
      const record = await stores.apiKeys.update(current.id, {
        ...rest,
        ...(carried ? { scopes: carried.scopes, role: carried.role } : {}),
        ...(expiry === undefined ? {} : { expires_at: expiry }),
      });
      if (!record) throw DomainError.notFound('api_key_id', ref);
      const sent = { ...rest, api_key_scopes: carried?.effective, role: carried?.role, expires_at: expiry };
      const changes = describeChanges(presentApiKey(current, before), presentApiKey(record, carried?.effective ?? before), sent);
      return { result: record, audit: { action: 'key_updated', resource: keyAudit(record), changes } };
    });
    this.onCredentialsChanged();
    return presentApiKey(updated, carried?.effective ?? before);
  }

  /** Revoking a key revokes every key it created, down the lineage (storage cascades). */
  async destroy(principal: Principal, ref: string): Promise<void> {
    authorize(principal, 'api_keys', 'destroy');
    const current = await this.get(principal, ref);
    assertGrantable(principal, await keyScopes(this.deps.storage, current));
    await this.audit.change(principal, async (stores) => ({
      result: await stores.apiKeys.delete(current.id),
      audit: { action: 'key_revoked', resource: keyAudit(current), changes: null },
    }));
    this.onCredentialsChanged();
  }

  /** GET /api_keys/current: what the caller's own credential may do (no scope needed); a user's is its role's. */
  async current(principal: Principal): Promise<{ kind: Principal['kind']; name: string; api_key_scopes: Scope[]; id?: number }> {
    if (principal.kind === 'user') return { kind: 'user', name: principal.username, api_key_scopes: [...principal.scopes] };
    return { kind: 'api_key', id: principal.keyId, name: principal.name, api_key_scopes: [...principal.scopes] };
  }
}
