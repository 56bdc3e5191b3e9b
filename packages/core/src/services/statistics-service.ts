import type { CoreDeps } from './core-deps.js';
import type { Principal } from '../scopes/principal.js';
import type { ShareCapacityRow } from '../ports/storage.js';
import { authorize } from '../scopes/scope-check.js';
import { DomainError } from '../errors/domain-error.js';
import { maxCapacityPeriodDays, type Capacity } from '../domain/statistics.js';
import type { RawQuery } from '../list-query/parse-list-query.js';
import { usedPercent } from '../domain/capacity-forecast.js';

const dayMs = 24 * 3600_000;

type Sizes = Capacity['totals'];

function emptySizes(): Sizes {
  return {
    file_count: 0,
    file_size_sum: 0,
    shares_scanned: 0,
    shares_not_scanned: 0,
    growth: { file_count: 0, file_size_sum: 0 },
    capacity_bytes: 0,
    free_bytes: 0,
    used_percent: null,
    growth_bytes_per_day: 0,
    days_until_full: null,
    shares_with_capacity: 0,
    shares_merged: 0,
  };
}

/**
 * Shares on one file system report the same size and free space (decision 128): with the NAS,
 * that is the key a group counts a file system under once. Free space moves with every write,
 * so two file systems that merely look alike at the byte are as good as never met.
 */
function fileSystemKey(row: ShareCapacityRow): string | undefined {
  if (row.capacity_bytes === null || row.free_bytes === null) return undefined;
  return `${row.nas_id}:${row.capacity_bytes}:${row.free_bytes}`;
}

/** Adds a share's capacity to a group, once per file system (`seen` is the group's). */
function addCapacity(sizes: Sizes, row: ShareCapacityRow, seen: Set<string>): void {
  const key = fileSystemKey(row);
  if (key === undefined) return;
  sizes.shares_with_capacity += 1;
  if (seen.has(key)) {
    sizes.shares_merged += 1;
    return;
  }
  seen.add(key);
  sizes.capacity_bytes += row.capacity_bytes!;
  sizes.free_bytes += row.free_bytes!;
  sizes.growth_bytes_per_day += row.capacity_forecast?.growth_bytes_per_day ?? 0;
}

/** The group's percent and days once every share is in. */
function finishCapacity(sizes: Sizes): void {
  sizes.used_percent = usedPercent(sizes.shares_with_capacity === 0 ? null : sizes.capacity_bytes, sizes.free_bytes);
  sizes.days_until_full = sizes.growth_bytes_per_day > 0 ? Math.round((sizes.free_bytes / sizes.growth_bytes_per_day) * 10) / 10 : null;
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
    const seen = new Map<Sizes, Set<string>>();
    const addTo = (sizes: Sizes, row: ShareCapacityRow) => {
      add(sizes, row);
      let keys = seen.get(sizes);
      if (!keys) seen.set(sizes, (keys = new Set()));
      addCapacity(sizes, row, keys);
    };
    for (const row of rows) {
      addTo(totals, row);
      const nas = byNas.get(row.nas_id);
      if (nas) addTo(nas, row);
      const pool = row.pool_id === null ? undefined : byPool.get(row.pool_id);
      if (pool) addTo(pool, row);
    }
    for (const sizes of [totals, ...byNas.values(), ...byPool.values()]) finishCapacity(sizes);
    return { period_days: days, since, totals, nas: [...byNas.values()], pools: [...byPool.values()] };
  }
}
