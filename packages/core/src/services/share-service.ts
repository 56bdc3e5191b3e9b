import { refuseWhileAimedAt } from '../schedules/schedule-aims.js';
import type { CoreDeps } from './core-deps.js';
import type { Principal } from '../scopes/principal.js';
import type { NasRecord, NasSharePatch, NasShareRecord, ShareGaugeRow, ShareCapacitySample, Stores } from '../ports/storage.js';
import { capacityOfOutcome, forecastReadingsRead } from '../jobs/capacity-findings.js';
import { testAdoptionWindowMs, testFingerprint } from '../jobs/test-fingerprint.js';
import type { ShareDriverRegistry } from '../ports/share-driver.js';
import type { NasService } from './nas-service.js';
import type { PoolService } from './pool-service.js';
import { authorize, canSeeSharePassword } from '../scopes/scope-check.js';
import { parseInput } from '../validation/zod-details.js';
import { DomainError } from '../errors/domain-error.js';
import { whenReady, type MaybePromise } from '../ports/maybe-promise.js';
import { nasShareCreateSchema, nasShareUpdateSchema, shareThresholdProblem, type NasShare } from '../domain/nas-share.js';
import { shareListSpecs } from '../domain/nas-share.js';
import { parseListQuery, type RawQuery } from '../list-query/parse-list-query.js';
import { canBeName, parseNumericId } from './resolve-ref.js';
import { shareLocation } from '../jobs/share-location.js';
import { shareScanListSpec, type ScanComparison, type ShareScan, type ShareScanDetail } from '../domain/statistics.js';
import { histogramsSideBySide, topGrowers } from '../scans/compare-scan-analytics.js';
import { maxId } from '../domain/common.js';
import { newestFirst } from '../list-query/newest-first.js';
import { auditResource, describeChanges, type AuditTrail } from './audit-trail.js';
import { daysUntil, thinEvenly, usedPercent } from '../domain/capacity-forecast.js';

/** A scan's id as a path or query carries it; anything else names no scan (404). */
function parseScanId(text: string): number | undefined {
  return /^[1-9]\d{0,9}$/.test(text) && Number(text) <= maxId ? Number(text) : undefined;
}

function parseCompareQuery(raw: RawQuery): { from: string; to: string } {
  for (const name of Object.keys(raw)) {
    if (name !== 'from' && name !== 'to') throw DomainError.badRequest(name, `unknown query parameter '${name}'; accepted: from, to`);
  }
  const one = (name: 'from' | 'to'): string => {
    const values = raw[name] ?? [];
    if (values.length !== 1 || parseScanId(values[0]!) === undefined) throw DomainError.badRequest(name, `${name} must be given once: a scan id of this share`);
    return values[0]!;
  };
  return { from: one('from'), to: one('to') };
}

/** At most this many readings in a share's capacity chart. */
export const maxCapacityHistoryPoints = 500;

const shareAudit = (share: NasShareRecord) => auditResource('nas_shares', share.id, share.name);
/** Recorded as changed, never with a value (docs/decisions/084-audit-trail.md). */
const shareSecrets = ['password'];

/** The three route families of the API: all shares, a NAS's shares, a pool's shares. */
export type ShareScope = { kind: 'all' } | { kind: 'nas'; nasRef: string } | { kind: 'pool'; poolRef: string };

export interface ShareCollection {
  count: number;
  nas_shares: NasShare[];
}

/** A family narrower than all shares: the NAS or pool its shares must belong to. */
interface ScopeFilter {
  field: 'nas_id' | 'pool_id';
  id: number;
}

const inScope = (share: NasShareRecord, within: ScopeFilter | undefined) => within === undefined || share[within.field] === within.id;

/** The fields that say where a share connects and as whom (docs/decisions/037-stored-passwords-follow-their-target.md). */
const targetFields = ['path', 'options', 'username'] as const;

function movesTarget(current: NasShareRecord, patch: NasSharePatch): boolean {
  return targetFields.some((field) => patch[field] !== undefined && patch[field] !== current[field]);
}

/**
 * What a share's driver can check of its path before anything runs: a `local` path must lie
 * inside the local roots (422 on `path`, naming them). Other drivers check nothing here.
 */
export async function checkSharePath(drivers: ShareDriverRegistry, nas: NasRecord, path: string): Promise<void> {
  // Only the path is known to matter here: no options, user or password.
  const check = await drivers.forType(nas.type).checkPath?.(shareLocation(nas, { path, options: null, username: null }, null));
  if (check !== undefined && !check.ok) throw new DomainError('validation', check.message, { details: { path: [{ error: 'invalid', value: path }] } });
}

/** The figures a share's capacity gives: used in percent, and days until the forecast reaches the size. */
export function capacityFigures(
  record: Pick<NasShareRecord, 'capacity_bytes' | 'free_bytes' | 'capacity_forecast'>,
  now: number,
): { used_percent: number | null; days_until_full: number | null } {
  const { capacity_bytes: size, free_bytes: free, capacity_forecast: forecast } = record;
  return {
    used_percent: usedPercent(size, free),
    days_until_full: forecast === null || forecast.full_at === null ? null : daysUntil(Date.parse(forecast.full_at), now),
  };
}

/** 422 when a share's own thresholds cross (the merged values on update). */
function refuseCrossedThresholds(warning: number | null | undefined, critical: number | null | undefined): void {
  const problem = shareThresholdProblem(warning, critical);
  if (problem) throw DomainError.invalid({ capacity_critical_percent: [{ error: 'invalid', value: critical ?? undefined }] }, [problem]);
}

export class ShareService {
  constructor(
    private readonly deps: CoreDeps,
    private readonly audit: AuditTrail,
    private readonly nas: NasService,
    private readonly pools: PoolService,
    private readonly drivers: ShareDriverRegistry,
  ) {}

  /** A record as the API shows it: the password only for a principal allowed to see it. */
  present(record: NasShareRecord, withPassword: boolean): NasShare {
    // A literal, not `{ password_enc, ...visible } = record`: rest-copying a row object cost a
    // show nearly as much as reading the row. `satisfies` keeps it complete as columns come.
    const visible = {
      id: record.id,
      nas_id: record.nas_id,
      pool_id: record.pool_id,
      name: record.name,
      path: record.path,
      options: record.options,
      username: record.username,
      file_count: record.file_count,
      file_size_sum: record.file_size_sum,
      health: record.health,
      last_tested_at: record.last_tested_at,
      last_test_status: record.last_test_status,
      last_scanned_at: record.last_scanned_at,
      capacity_bytes: record.capacity_bytes,
      free_bytes: record.free_bytes,
      capacity_checked_at: record.capacity_checked_at,
      capacity_forecast: record.capacity_forecast,
      capacity_warning_percent: record.capacity_warning_percent,
      capacity_critical_percent: record.capacity_critical_percent,
    } satisfies Omit<NasShareRecord, 'password_enc'>;
    const shown = { ...visible, ...capacityFigures(record, this.deps.clock().getTime()) };
    if (!withPassword) return shown;
    const sealed = record.password_enc;
    return { ...shown, password: sealed === null ? null : this.deps.secrets.open(sealed) };
  }

  private async scopeFilter(scope: ShareScope): Promise<ScopeFilter | undefined> {
    if (scope.kind === 'nas') return { field: 'nas_id', id: (await this.nas.resolve(scope.nasRef)).id };
    if (scope.kind === 'pool') return { field: 'pool_id', id: (await this.pools.resolve(scope.poolRef)).id };
    return undefined;
  }

  /**
   * Finds a share by id or name inside its route family; a share outside it is 404. By id in
   * the family of all shares it answers as soon as storage does (at once on SQLite).
   */
  resolve(scope: ShareScope, ref: string): MaybePromise<NasShareRecord> {
    if (scope.kind === 'all') return this.resolveWithin(undefined, ref);
    return this.scopeFilter(scope).then((within) => this.resolveWithin(within, ref));
  }

  private resolveWithin(within: ScopeFilter | undefined, ref: string): MaybePromise<NasShareRecord> {
    if (!/^[1-9]\d{0,15}$/.test(ref)) return this.resolveByName(within, ref);
    return whenReady(this.deps.storage.shares.get(parseNumericId(ref, 'nas_share_id')), (byId) =>
      byId !== undefined && inScope(byId, within) ? byId : this.resolveByName(within, ref),
    );
  }

  private async resolveByName(within: ScopeFilter | undefined, ref: string): Promise<NasShareRecord> {
    const notFound = () => DomainError.notFound('nas_share_id', ref);
    if (!canBeName(ref)) throw notFound();
    const named = (await this.deps.storage.shares.findByName(ref, within?.field === 'nas_id' ? within.id : undefined)).filter((share) =>
      inScope(share, within),
    );
    if (named.length === 0) throw notFound();
    if (named.length > 1) {
      throw DomainError.badRequest('nas_share_id', `more than one share is named '${ref}': address it by id or under its NAS`);
    }
    return named[0]!;
  }

  async list(principal: Principal, scope: ShareScope, raw: RawQuery): Promise<ShareCollection> {
    authorize(principal, 'nas_shares', 'index');
    const query = parseListQuery(raw, shareListSpecs[scope.kind]);
    const within = await this.scopeFilter(scope);
    if (within) query.filters.push({ field: within.field, op: 'eq', values: [within.id] });
    const page = await this.deps.storage.shares.list(query);
    const withPassword = canSeeSharePassword(principal);
    return { count: page.count, nas_shares: page.items.map((record) => this.present(record, withPassword)) };
  }

  show(principal: Principal, scope: ShareScope, ref: string): MaybePromise<NasShare> {
    authorize(principal, 'nas_shares', 'show');
    return whenReady(this.resolve(scope, ref), (record) => this.present(record, canSeeSharePassword(principal)));
  }

  async create(principal: Principal, nasRef: string, body: unknown): Promise<NasShare> {
    authorize(principal, 'nas_shares', 'create');
    const input = parseInput(nasShareCreateSchema, body);
    refuseCrossedThresholds(input.capacity_warning_percent, input.capacity_critical_percent);
    const nas = await this.nas.resolve(nasRef);
    await checkSharePath(this.drivers, nas, input.path);
    const record = await this.audit.change(principal, async (stores) => {
      const created = await stores.shares.create({
        nas_id: nas.id,
        name: input.name,
        path: input.path,
        options: input.options || null,
        username: input.username ?? null,
        password_enc: input.password == null ? null : this.deps.secrets.seal(input.password),
        capacity_warning_percent: input.capacity_warning_percent ?? null,
        capacity_critical_percent: input.capacity_critical_percent ?? null,
      });
      const changes = describeChanges(null, created, { ...input, nas_id: nas.id }, shareSecrets);
      const tested = await this.adoptTest(stores, principal, nas, created, input.password ?? null);
      return { result: tested ?? created, audit: { action: 'create', resource: shareAudit(created), changes } };
    });
    return this.present(record, canSeeSharePassword(principal));
  }

  /**
   * A test of exactly this location and these credentials, by the same principal, finished within
   * `testAdoptionWindowMs`, becomes the new share's latest test: its job is the share's, and
   * the share takes its health, time, status and capacity (docs/decisions/153-test-before-save.md).
   * Resolves the share as it then is, or undefined when no test matches.
   */
  private async adoptTest(stores: Stores, principal: Principal, nas: NasRecord, share: NasShareRecord, password: string | null) {
    const fingerprint = testFingerprint(this.deps.secrets, principal, nas, { path: share.path, options: share.options, username: share.username, password });
    const finishedSince = new Date(this.deps.clock().getTime() - testAdoptionWindowMs).toISOString();
    const job = await stores.jobs.adoptTest({ nasId: nas.id, fingerprint, finishedSince }, share.id);
    if (job?.finished_at == null || (job.status !== 'completed' && job.status !== 'failed')) return undefined;
    const capacity = capacityOfOutcome({
      status: job.status,
      message: job.message,
      progress: job.progress,
      total: job.total,
      steps: job.steps,
      result: job.result,
    });
    await stores.shares.recordTest(share.id, { status: job.status, at: job.finished_at, ...(capacity ? { capacity } : {}) });
    return stores.shares.get(share.id);
  }

  /**
   * A stored password is never replayed to a new target: changing where a share connects,
   * without `get_password` and without a new password, forgets the stored one.
   */
  async update(principal: Principal, scope: ShareScope, ref: string, body: unknown): Promise<NasShare> {
    authorize(principal, 'nas_shares', 'update');
    const { password, options, ...fields } = parseInput(nasShareUpdateSchema, body);
    const current = await this.resolve(scope, ref);
    refuseCrossedThresholds(
      fields.capacity_warning_percent === undefined ? current.capacity_warning_percent : fields.capacity_warning_percent,
      fields.capacity_critical_percent === undefined ? current.capacity_critical_percent : fields.capacity_critical_percent,
    );
    if (fields.path !== undefined && fields.path !== current.path) await checkSharePath(this.drivers, await this.nas.ofShare(current), fields.path);
    const patch: NasSharePatch = {
      ...fields,
      ...(options === undefined ? {} : { options: options || null }),
      ...(password === undefined ? {} : { password_enc: password === null ? null : this.deps.secrets.seal(password) }),
    };
    const forgets = password === undefined && current.password_enc !== null && movesTarget(current, patch) && !canSeeSharePassword(principal);
    if (forgets) patch.password_enc = null;
    const record = await this.audit.change(principal, async (stores) => {
      const updated = await stores.shares.update(current.id, patch);
      if (!updated) throw DomainError.notFound('nas_share_id', ref);
      const sent = { ...fields, options: patch.options, password: forgets ? null : password };
      return { result: updated, audit: { action: 'update', resource: shareAudit(updated), changes: describeChanges(current, updated, sent, shareSecrets) } };
    });
    return this.present(record, canSeeSharePassword(principal));
  }

  /**
   * A share's capacity readings over the last `days`, oldest first, thinned evenly in time to at
   * most `maxCapacityHistoryPoints` (a schedule testing each minute keeps 43,200 in 30 days):
   * the console's chart of used and size (docs/decisions/143-console-capacity.md).
   */
  async capacityHistory(principal: Principal, scope: ShareScope, ref: string, days: number): Promise<ShareCapacitySample[]> {
    authorize(principal, 'nas_shares', 'show');
    if (!Number.isInteger(days) || days < 1 || days > 3650) throw DomainError.badRequest('days', 'days must be one integer from 1 to 3650');
    const record = await this.resolve(scope, ref);
    const since = new Date(this.deps.clock().getTime() - days * 86_400_000).toISOString();
    const readings = await this.deps.storage.shares.capacityHistory(record.id, since, forecastReadingsRead);
    return thinEvenly(readings, maxCapacityHistoryPoints, (reading) => Date.parse(reading.at));
  }

  /** Every share's names and latest findings, for `/metrics` (whose route admits admins only). */
  gauges(pageSize: number): AsyncIterable<readonly ShareGaugeRow[]> {
    return this.deps.storage.shares.gauges(pageSize);
  }

  /** GET /nas_shares/{id}/scans: the share's completed scans, newest first. */
  async scans(principal: Principal, scope: ShareScope, ref: string, raw: RawQuery): Promise<{ count: number; scans: ShareScan[] }> {
    authorize(principal, 'nas_shares', 'show');
    const query = newestFirst(parseListQuery(raw, shareScanListSpec), 'at');
    const share = await this.resolve(scope, ref);
    const page = await this.deps.storage.shares.listScans(share.id, query);
    return { count: page.count, scans: page.items.map(({ share_id: _share, ...scan }) => scan) };
  }

  /** GET /nas_shares/{id}/scans/{scan_id}: one scan of the share, with its analytics. */
  async scan(principal: Principal, scope: ShareScope, ref: string, scanRef: string): Promise<ShareScanDetail> {
    authorize(principal, 'nas_shares', 'show');
    const share = await this.resolve(scope, ref);
    return this.scanOf(share.id, scanRef, 'scan_id');
  }

  /** GET /nas_shares/{id}/scans/compare?from=&to=: what changed between two scans of the share. */
  async compareScans(principal: Principal, scope: ShareScope, ref: string, raw: RawQuery): Promise<ScanComparison> {
    authorize(principal, 'nas_shares', 'show');
    const ids = parseCompareQuery(raw);
    const share = await this.resolve(scope, ref);
    const [from, to] = await Promise.all([this.scanOf(share.id, ids.from, 'from'), this.scanOf(share.id, ids.to, 'to')]);
    for (const [name, scan] of [
      ['from', from],
      ['to', to],
    ] as const) {
      if (scan.analytics === null) {
        throw new DomainError('conflict', `scan ${scan.id} was made before scans kept analytics: compare two later scans`, {
          details: { [name]: [{ error: 'invalid', value: scan.id }] },
        });
      }
    }
    const summary = ({ id, at, file_count, file_size_sum }: ShareScanDetail) => ({ id, at, file_count, file_size_sum });
    return {
      from: summary(from),
      to: summary(to),
      top_growers: topGrowers(from.analytics!, to.analytics!),
      ...histogramsSideBySide(from.analytics!, to.analytics!),
    };
  }

  private async scanOf(shareId: number, scanRef: string, attribute: string): Promise<ShareScanDetail> {
    const scanId = parseScanId(scanRef);
    const found = scanId === undefined ? undefined : await this.deps.storage.shares.getScan(shareId, scanId);
    if (found === undefined) throw DomainError.notFound(attribute, scanRef);
    const { share_id: _share, ...scan } = found;
    return scan;
  }

  async destroy(principal: Principal, scope: ShareScope, ref: string): Promise<void> {
    authorize(principal, 'nas_shares', 'destroy');
    const current = await this.resolve(scope, ref);
    await this.audit.change(principal, async (stores) => {
      await refuseWhileAimedAt(stores, { shareId: current.id }, `share ${current.name}`);
      return { result: await stores.shares.delete(current.id), audit: { action: 'delete', resource: shareAudit(current), changes: null } };
    });
  }
}
