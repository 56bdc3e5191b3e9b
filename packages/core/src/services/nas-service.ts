import type { CoreDeps } from './core-deps.js';
import type { Principal } from '../scopes/principal.js';
import type { NasRecord } from '../ports/storage.js';
import { authorize, canSeeSharePassword } from '../scopes/scope-check.js';
import { parseInput } from '../errors/zod-details.js';
import { DomainError } from '../errors/domain-error.js';
import { nasCreateSchema, nasUpdateSchema, type Nas } from '../domain/nas.js';
import { nasListSpec } from '../list-query/list-specs.js';
import { parseListQuery, type RawQuery } from '../list-query/parse-list-query.js';
import { resolveRef } from './resolve-ref.js';

export class NasService {
  constructor(private readonly deps: CoreDeps) {}

  /** Finds a NAS by id or name for a path parameter; 404 `nas_id` when absent. */
  resolve(ref: string): Promise<NasRecord> {
    const { nas } = this.deps.storage;
    return resolveRef(ref, 'nas_id', (id) => nas.get(id), (name) => nas.findByName(name));
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
    return this.deps.storage.nas.create({ comment: null, price: null, ...input });
  }

  /**
   * Moving a NAS (host or type) without `nas_shares / get_password` forgets its shares'
   * stored passwords, first: a stored secret is never replayed to a new target (DESIGN §5.19).
   */
  async update(principal: Principal, ref: string, body: unknown): Promise<Nas> {
    authorize(principal, 'nas', 'update');
    const input = parseInput(nasUpdateSchema, body);
    const current = await this.resolve(ref);
    const moves = (input.host !== undefined && input.host !== current.host) || (input.type !== undefined && input.type !== current.type);
    if (moves && !canSeeSharePassword(principal)) await this.deps.storage.shares.clearPasswordsOfNas(current.id);
    const updated = await this.deps.storage.nas.update(current.id, input);
    if (!updated) throw DomainError.notFound('nas_id', ref);
    return updated;
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
    await this.deps.storage.nas.delete(current.id);
  }
}
