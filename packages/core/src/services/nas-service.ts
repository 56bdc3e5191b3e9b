import { refuseWhileAimedAt } from '../schedules/schedule-aims.js';
import type { CoreDeps } from './core-deps.js';
import type { Principal } from '../scopes/principal.js';
import type { NasRecord, NasShareRecord } from '../ports/storage.js';
import { authorize, canSeeSharePassword } from '../scopes/scope-check.js';
import { parseInput } from '../validation/zod-details.js';
import { DomainError } from '../errors/domain-error.js';
import { nasCreateSchema, nasUpdateSchema, type Nas } from '../domain/nas.js';
import { nasListSpec } from '../domain/nas.js';
import { parseListQuery, type RawQuery } from '../list-query/parse-list-query.js';
import { resolveRef } from './resolve-ref.js';
import type { HostPolicy } from '../security/host-policy.js';
import type { NasType } from '../domain/common.js';
import { auditResource, describeChanges, type AuditTrail } from './audit-trail.js';

const nasAudit = (nas: NasRecord) => auditResource('nas', nas.id, nas.name);

/**
 * 422 on `host` unless `share_test_allowed_hosts` allows it. A `local` NAS connects nowhere; the
 * drivers check again, against the addresses they connect to, when a job runs.
 */
export async function checkHostAllowed(policy: HostPolicy, type: NasType, host: string): Promise<void> {
  if (type === 'local' || (await policy.allows(host))) return;
  throw new DomainError('validation', `host ${host} is not among the share_test_allowed_hosts of this server; an admin can add it in the settings`, {
    details: { host: [{ error: 'forbidden', value: host }] },
  });
}

export class NasService {
  constructor(
    private readonly deps: CoreDeps,
    private readonly audit: AuditTrail,
    /** `share_test_allowed_hosts` as it is now. */
    private readonly hostPolicy: () => Promise<HostPolicy>,
  ) {}

  /** Finds a NAS by id or name for a path parameter; 404 `nas_id` when absent. */
  resolve(ref: string): Promise<NasRecord> {
    const { nas } = this.deps.storage;
    return resolveRef(
      ref,
      'nas_id',
      (id) => nas.get(id),
      (name) => nas.findByName(name),
    );
  }

  /** The NAS a share belongs to; 404 `nas_id` should it be gone. */
  async ofShare(share: Pick<NasShareRecord, 'nas_id'>): Promise<NasRecord> {
    const nas = await this.deps.storage.nas.get(share.nas_id);
    if (!nas) throw DomainError.notFound('nas_id', share.nas_id);
    return nas;
  }

  async list(principal: Principal, raw: RawQuery): Promise<{ count: number; nas: Nas[] }> {
    authorize(principal, 'nas', 'index');
    const page = await this.deps.storage.nas.list(parseListQuery(raw, nasListSpec));
    return { count: page.count, nas: page.items };
  }

  async show(principal: Principal, ref: string): Promise<Nas> {
    authorize(principal, 'nas', 'show');
    return this.resolve(ref);
  }

  async create(principal: Principal, body: unknown): Promise<Nas> {
    authorize(principal, 'nas', 'create');
    const input = parseInput(nasCreateSchema, body);
    await checkHostAllowed(await this.hostPolicy(), input.type, input.host);
    return this.audit.change(principal, async (stores) => {
      const created = await stores.nas.create({ comment: null, price: null, ...input });
      return { result: created, audit: { action: 'create', resource: nasAudit(created), changes: describeChanges(null, created, input) } };
    });
  }

  /**
   * Moving a NAS (host or type) without `nas_shares / get_password` forgets its shares'
   * stored passwords, first: a stored secret is never replayed to a new target (docs/decisions/037-stored-passwords-follow-their-target.md).
   * Its new target must be within `share_test_allowed_hosts` (an edit that does not move it is
   * not refused, so a NAS saved before the list was narrowed can still be renamed).
   */
  async update(principal: Principal, ref: string, body: unknown): Promise<Nas> {
    authorize(principal, 'nas', 'update');
    const input = parseInput(nasUpdateSchema, body);
    const current = await this.resolve(ref);
    const moves = (input.host !== undefined && input.host !== current.host) || (input.type !== undefined && input.type !== current.type);
    if (moves) await checkHostAllowed(await this.hostPolicy(), input.type ?? current.type, input.host ?? current.host);
    return this.audit.change(principal, async (stores) => {
      const cleared = moves && !canSeeSharePassword(principal) ? await stores.shares.clearPasswordsOfNas(current.id) : 0;
      const updated = await stores.nas.update(current.id, input);
      if (!updated) throw DomainError.notFound('nas_id', ref);
      const changes = describeChanges(current, updated, input);
      // The shares' passwords forgotten with the move are part of this change (docs/decisions/037-stored-passwords-follow-their-target.md).
      const withCleared = cleared > 0 ? { ...changes, share_passwords: 'changed' as const } : changes;
      return { result: updated, audit: { action: 'update', resource: nasAudit(updated), changes: withCleared } };
    });
  }

  async destroy(principal: Principal, ref: string): Promise<void> {
    authorize(principal, 'nas', 'destroy');
    const current = await this.resolve(ref);
    const shares = await this.deps.storage.nas.shareCount(current.id);
    if (shares > 0) {
      throw new DomainError('conflict', `NAS ${current.name} still has ${shares} share(s); delete them first`, {
        details: { nas_shares: [{ error: 'frozen', count: shares }] },
      });
    }
    await this.audit.change(principal, async (stores) => {
      await refuseWhileAimedAt(stores, { nasId: current.id }, `NAS ${current.name}`);
      return { result: await stores.nas.delete(current.id), audit: { action: 'delete', resource: nasAudit(current), changes: null } };
    });
  }
}
