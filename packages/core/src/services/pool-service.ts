import { refuseWhileAimedAt } from '../schedules/schedule-aims.js';
import type { CoreDeps } from './core-deps.js';
import type { Principal } from '../scopes/principal.js';
import type { PoolRecord } from '../ports/storage.js';
import { authorize } from '../scopes/scope-check.js';
import { parseInput } from '../validation/zod-details.js';
import { DomainError } from '../errors/domain-error.js';
import { poolCreateSchema, poolUpdateSchema, type Pool } from '../domain/pool.js';
import { poolListSpec } from '../domain/pool.js';
import { parseListQuery, type RawQuery } from '../list-query/parse-list-query.js';
import { resolveRef } from './resolve-ref.js';
import { auditResource, describeChanges, type AuditTrail } from './audit-trail.js';

const poolAudit = (pool: PoolRecord) => auditResource('pools', pool.id, pool.name);

export class PoolService {
  constructor(
    private readonly deps: CoreDeps,
    private readonly audit: AuditTrail,
  ) {}

  resolve(ref: string): Promise<PoolRecord> {
    const { pools } = this.deps.storage;
    return resolveRef(
      ref,
      'pool_id',
      (id) => pools.get(id),
      (name) => pools.findByName(name),
    );
  }

  private async withMembers(records: PoolRecord[]): Promise<Pool[]> {
    const members = await this.deps.storage.pools.memberIds(records.map((pool) => pool.id));
    return records.map((pool) => ({ ...pool, nas_share_ids: members.get(pool.id) ?? [] }) as Pool);
  }

  async list(principal: Principal, raw: RawQuery): Promise<{ count: number; pools: Pool[] }> {
    authorize(principal, 'pools', 'index');
    const page = await this.deps.storage.pools.list(parseListQuery(raw, poolListSpec));
    return { count: page.count, pools: await this.withMembers(page.items) };
  }

  async show(principal: Principal, ref: string): Promise<Pool> {
    authorize(principal, 'pools', 'show');
    const [pool] = await this.withMembers([await this.resolve(ref)]);
    return pool!;
  }

  async create(principal: Principal, body: unknown): Promise<Pool> {
    authorize(principal, 'pools', 'create');
    const input = parseInput(poolCreateSchema, body);
    const created = await this.audit.change(principal, async (stores) => {
      const record = await stores.pools.create({ comment: null, ...input });
      return { result: record, audit: { action: 'create', resource: poolAudit(record), changes: describeChanges(null, record, input) } };
    });
    const [pool] = await this.withMembers([created]);
    return pool!;
  }

  async update(principal: Principal, ref: string, body: unknown): Promise<Pool> {
    authorize(principal, 'pools', 'update');
    const { nas_share_ids: memberIds, ...fields } = parseInput(poolUpdateSchema, body);
    const current = await this.resolve(ref);
    const content = fields.content ?? current.content;
    if (memberIds !== undefined && memberIds.length > 0 && content !== 'nas') {
      throw DomainError.invalid({ nas_share_ids: [{ error: 'invalid' }] }, [
        `pool ${current.name} holds ${content}, only a pool whose content is nas takes shares`,
      ]);
    }
    if (fields.content !== undefined && fields.content !== 'nas' && memberIds === undefined) {
      const members = (await this.deps.storage.pools.memberIds([current.id])).get(current.id) ?? [];
      if (members.length > 0) {
        throw DomainError.invalid({ content: [{ error: 'frozen', count: members.length }] }, [
          `content cannot change while the pool holds ${members.length} share(s)`,
        ]);
      }
    }
    // A rejected update changes nothing: the name is checked first, then setMembers checks
    // every share before it writes, and only then are the pool's own fields written.
    if (memberIds !== undefined && fields.name !== undefined && fields.name !== current.name) {
      const holder = await this.deps.storage.pools.findByName(fields.name);
      if (holder !== undefined && holder.id !== current.id) throw DomainError.taken('name', fields.name);
    }
    const [before] = await this.withMembers([current]);
    const updated = await this.audit.change(principal, async (stores) => {
      if (memberIds !== undefined) await stores.pools.setMembers(current.id, memberIds);
      const record = await stores.pools.update(current.id, fields);
      if (!record) throw DomainError.notFound('pool_id', ref);
      const after = { ...record, nas_share_ids: memberIds ?? before!.nas_share_ids };
      return {
        result: record,
        audit: { action: 'update', resource: poolAudit(record), changes: describeChanges(before!, after, { ...fields, nas_share_ids: memberIds }) },
      };
    });
    const [pool] = await this.withMembers([updated]);
    return pool!;
  }

  /**
   * Deletes the pool; its shares are kept, in no pool (unlike a NAS, whose shares would go with
   * it, so a NAS with shares is refused). Resolves the shares it released, read in the same
   * transaction as the delete; the audit event lists them as `nas_share_ids` from them to none.
   */
  async destroy(principal: Principal, ref: string): Promise<{ released_nas_share_ids: number[] }> {
    authorize(principal, 'pools', 'destroy');
    const current = await this.resolve(ref);
    return this.audit.change(principal, async (stores) => {
      await refuseWhileAimedAt(stores, { poolId: current.id }, `pool ${current.name}`);
      const released = (await stores.pools.memberIds([current.id])).get(current.id) ?? [];
      await stores.pools.delete(current.id);
      const changes = released.length > 0 ? { nas_share_ids: { from: released, to: [] } } : null;
      return { result: { released_nas_share_ids: released }, audit: { action: 'delete', resource: poolAudit(current), changes } };
    });
  }
}
