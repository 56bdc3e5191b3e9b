import type { CoreDeps } from './core-deps.js';
import type { Principal } from '../scopes/principal.js';
import type { ShareCapacityRow } from '../ports/storage.js';
import { authorize } from '../scopes/scope-check.js';
import { DomainError } from '../errors/domain-error.js';
import { maxCapacityPeriodDays, type Capacity } from '../domain/statistics.js';
import type { RawQuery } from '../list-query/parse-list-query.js';
import { usedPercent } from '../domain/capacity-forecast.js';
import { maxReportDays, reportGrowersPerShare, reportGrowerShares, type ReportShare, type StatisticsReport } from '../domain/statistics-report.js';
import type { TopGrower } from '../domain/scan-analytics.js';
import { topGrowers } from '../scans/compare-scan-analytics.js';
import { capacityFigures } from './share-service.js';

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

function parseDays(raw: RawQuery, max: number = maxCapacityPeriodDays, fallback = 30): number {
  for (const name of Object.keys(raw)) {
    if (name !== 'days') throw DomainError.badRequest(name, `unknown query parameter '${name}'; accepted: days`);
  }
  const values = raw['days'] ?? [];
  if (values.length === 0) return fallback;
  const text = values[0]!;
  if (values.length > 1 || !/^\d{1,4}$/.test(text) || Number(text) < 1 || Number(text) > max) {
    throw DomainError.badRequest('days', `days must be one integer from 1 to ${max}`);
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

  /**
   * GET /statistics/report: per share, its size and free space, growth over the period, days
   * until full, the directories that grew most and the failed tests of the period (decision 157).
   */
  async report(principal: Principal, raw: RawQuery): Promise<StatisticsReport> {
    authorize(principal, 'statistics', 'show');
    const days = parseDays(raw, maxReportDays, 7);
    const now = this.deps.clock().getTime();
    const since = new Date(now - days * dayMs).toISOString();
    const { storage } = this.deps;
    const everything = { limit: 100_000, offset: 0, sort: [], filters: [] };
    const [rows, sharePage, nasPage, failed] = await Promise.all([
      storage.shares.capacity(since),
      storage.shares.list(everything),
      storage.nas.list(everything),
      storage.jobs.failedTestsSince(since),
    ]);
    const names = new Map(sharePage.items.map((share) => [share.id, share.name]));
    const nasNames = new Map(nasPage.items.map((nas) => [nas.id, nas.name]));
    const failedBy = new Map(failed.map((row) => [row.share_id, row.count]));
    const growth = (row: ShareCapacityRow) => (row.last_scanned_at === null ? null : row.file_size_sum - (row.base_file_size_sum ?? row.file_size_sum));
    // Growers cost two analytics reads a share: only for the shares that grew or shrank most.
    const compared = new Set(
      rows
        .filter((row) => row.base_scan_id !== null && row.latest_scan_id !== null && row.base_scan_id !== row.latest_scan_id)
        .sort((a, b) => Math.abs(growth(b) ?? 0) - Math.abs(growth(a) ?? 0) || a.id - b.id)
        .slice(0, reportGrowerShares)
        .map((row) => row.id),
    );
    const shares: ReportShare[] = [];
    for (const row of rows) {
      const scanned = row.last_scanned_at !== null;
      const figures = capacityFigures(row, now);
      shares.push({
        nas_share_id: row.id,
        name: names.get(row.id) ?? '',
        nas_id: row.nas_id,
        nas_name: nasNames.get(row.nas_id) ?? '',
        file_count: scanned ? row.file_count : null,
        file_size_sum: scanned ? row.file_size_sum : null,
        capacity_bytes: row.capacity_bytes,
        used_bytes: row.capacity_bytes === null || row.free_bytes === null ? null : row.capacity_bytes - row.free_bytes,
        free_bytes: row.free_bytes,
        growth_bytes: growth(row),
        growth_files: scanned ? row.file_count - (row.base_file_count ?? row.file_count) : null,
        days_until_full: figures.days_until_full,
        failed_tests: failedBy.get(row.id) ?? 0,
        top_growers: compared.has(row.id) ? await this.periodGrowers(row) : null,
      });
    }
    return { period_days: days, since, generated_at: new Date(now).toISOString(), shares };
  }

  private async periodGrowers(row: ShareCapacityRow): Promise<TopGrower[] | null> {
    const { shares } = this.deps.storage;
    const [from, to] = await Promise.all([shares.getScan(row.id, row.base_scan_id!), shares.getScan(row.id, row.latest_scan_id!)]);
    if (!from?.analytics || !to?.analytics) return null;
    return topGrowers(from.analytics, to.analytics, reportGrowersPerShare).slice(0, reportGrowersPerShare);
  }
}
