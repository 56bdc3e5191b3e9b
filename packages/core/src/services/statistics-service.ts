import type { CoreDeps } from './core-deps.js';
import type { Principal } from '../scopes/principal.js';
import type { ShareCapacityRow } from '../ports/storage.js';
import { authorize } from '../scopes/scope-check.js';
import { DomainError } from '../errors/domain-error.js';
import { maxCapacityPeriodDays, type Capacity } from '../domain/statistics.js';
import type { RawQuery } from '../list-query/parse-list-query.js';

const dayMs = 24 * 3600_000;

type Sizes = Capacity['totals'];

function emptySizes(): Sizes {
  return { file_count: 0, file_size_sum: 0, shares_scanned: 0, shares_not_scanned: 0, growth: { file_count: 0, file_size_sum: 0 } };
}

function add(sizes: Sizes, row: ShareCapacityRow): void {
  if (row.last_scanned_at === null) {
    sizes.shares_not_scanned += 1;
    return;
  }
  sizes.shares_scanned += 1;
  sizes.file_count += row.file_count;
  sizes.file_size_sum += row.file_size_sum;
  sizes.growth.file_count += row.file_count - (row.base_file_count ?? row.file_count);
  sizes.growth.file_size_sum += row.file_size_sum - (row.base_file_size_sum ?? row.file_size_sum);
}

function parseDays(raw: RawQuery): number {
  for (const name of Object.keys(raw)) {
    if (name !== 'days') throw DomainError.badRequest(name, `unknown query parameter '${name}'; accepted: days`);
  }
  const values = raw['days'] ?? [];
  if (values.length === 0) return 30;
  const text = values[0]!;
  if (values.length > 1 || !/^\d{1,4}$/.test(text) || Number(text) < 1 || Number(text) > maxCapacityPeriodDays) {
    throw DomainError.badRequest('days', `days must be one integer from 1 to ${maxCapacityPeriodDays}`);
  }
  return Number(text);
}

/** GET /statistics/capacity: the size of what dms has scanned, per NAS and pool, and its growth. */
export class StatisticsService {
  constructor(private readonly deps: CoreDeps) {}

  async capacity(principal: Principal, raw: RawQuery): Promise<Capacity> {
    authorize(principal, 'statistics', 'show');
    const days = parseDays(raw);
    const since = new Date(this.deps.clock().getTime() - days * dayMs).toISOString();
    const { storage } = this.deps;
    const [rows, nasPage, poolPage] = await Promise.all([
      storage.shares.capacity(since),
      storage.nas.list({ limit: 100_000, offset: 0, sort: [], filters: [] }),
      storage.pools.list({ limit: 100_000, offset: 0, sort: [], filters: [] }),
    ]);
    const totals = emptySizes();
    const byNas = new Map(nasPage.items.map((nas) => [nas.id, { nas_id: nas.id, name: nas.name, ...emptySizes() }]));
    const byPool = new Map(poolPage.items.map((pool) => [pool.id, { pool_id: pool.id, name: pool.name, ...emptySizes() }]));
    for (const row of rows) {
      add(totals, row);
      const nas = byNas.get(row.nas_id);
      if (nas) add(nas, row);
      const pool = row.pool_id === null ? undefined : byPool.get(row.pool_id);
      if (pool) add(pool, row);
    }
    return { period_days: days, since, totals, nas: [...byNas.values()], pools: [...byPool.values()] };
  }
}
