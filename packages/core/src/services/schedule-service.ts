import type { CoreDeps } from './core-deps.js';
import type { Principal } from '../scopes/principal.js';
import type { ScheduleInsert, SchedulePatch, ScheduleRecord } from '../ports/schedule-store.js';
import type { ScheduleAction } from '../domain/schedule.js';
import type { SettingsService } from './settings-service.js';
import { authorize } from '../scopes/scope-check.js';
import { parseInput } from '../validation/zod-details.js';
import { DomainError } from '../errors/domain-error.js';
import { scheduleCreateSchema, scheduleListSpec, scheduleUpdateSchema, targetFieldsOf, type Schedule, type ScheduleUpdate } from '../domain/schedule.js';
import { parseListQuery, type RawQuery } from '../list-query/parse-list-query.js';
import { resolveRef } from './resolve-ref.js';
import { auditResource, describeChanges, type AuditTrail } from './audit-trail.js';
import { RecurrenceError, type Recurrences } from '../schedules/recurrence.js';
import { RuleCheckGate } from '../schedules/rule-check-gate.js';
import { creatorColumns } from '../schedules/schedule-creator.js';

const scheduleAudit = (schedule: Pick<ScheduleRecord, 'id' | 'name'>) => auditResource('schedules', schedule.id, schedule.name);

/** A schedule as the API shows it; a disabled one plans nothing (`next` null, as stored). */
export function presentSchedule(record: ScheduleRecord): Schedule {
  const { share_ids, next_run_at, ...rest } = record;
  return { ...rest, nas_share_ids: share_ids, next: next_run_at };
}

/** The target columns of a body's one target field: the others cleared. */
function targetColumns(
  input: Pick<ScheduleUpdate, 'nas_share_ids' | 'pool_id' | 'nas_id' | 'all_shares'>,
): Pick<ScheduleInsert, 'share_ids' | 'pool_id' | 'nas_id' | 'all_shares'> {
  return { share_ids: input.nas_share_ids ?? null, pool_id: input.pool_id ?? null, nas_id: input.nas_id ?? null, all_shares: input.all_shares === true };
}

/** `/schedules` (issue 23, docs/api.md#schedules): RRULE schedules of share tests and scans. */
export class ScheduleService {
  readonly #gate: RuleCheckGate;

  constructor(
    private readonly deps: CoreDeps,
    private readonly audit: AuditTrail,
    /** The API's own rule worker: the scheduler evaluates with another (docs/decisions/108-…). */
    private readonly ruleChecks: Recurrences,
    private readonly settings: Pick<SettingsService, 'current'>,
    /** Tells the scheduler a schedule changed, so a sooner run is not slept through (and which one was enabled, clearing its stop alert). */
    private readonly changed: (enabled?: Pick<ScheduleRecord, 'id' | 'name'>) => void = () => {},
  ) {
    this.#gate = new RuleCheckGate(deps.clock, () => ruleChecks.pending);
  }

  resolve(ref: string): Promise<ScheduleRecord> {
    const { schedules } = this.deps.storage;
    return resolveRef(
      ref,
      'schedule_id',
      (id) => schedules.get(id),
      (name) => schedules.findByName(name),
    );
  }

  async list(principal: Principal, raw: RawQuery): Promise<{ count: number; schedules: Schedule[] }> {
    authorize(principal, 'schedules', 'index');
    const page = await this.deps.storage.schedules.list(parseListQuery(raw, scheduleListSpec));
    return { count: page.count, schedules: page.items.map(presentSchedule) };
  }

  async show(principal: Principal, ref: string): Promise<Schedule> {
    authorize(principal, 'schedules', 'show');
    return presentSchedule(await this.resolve(ref));
  }

  async create(principal: Principal, body: unknown): Promise<Schedule> {
    authorize(principal, 'schedules', 'create');
    const input = parseInput(scheduleCreateSchema, body);
    this.authorizeActing(principal, input.action, input);
    await this.checkTarget(input);
    // Checked whether enabled or not; a disabled schedule plans nothing (next null) until enabled.
    const first = await this.firstRun(principal, input.rrule);
    const next = input.enabled ? first : null;
    const values: ScheduleInsert = {
      name: input.name,
      action: input.action,
      rrule: input.rrule,
      enabled: input.enabled,
      next_run_at: next,
      ...targetColumns(input),
      ...creatorColumns(principal),
    };
    const created = await this.audit.change(principal, async (stores) => {
      const record = await stores.schedules.create(values);
      return { result: record, audit: { action: 'create', resource: scheduleAudit(record), changes: describeChanges(null, presentSchedule(record), input) } };
    });
    this.changed();
    return presentSchedule(created);
  }

  /**
   * A new rule, or a schedule enabled again, is planned from now: what passed while it was
   * off is not counted missed (it was not due).
   */
  async update(principal: Principal, ref: string, body: unknown): Promise<Schedule> {
    authorize(principal, 'schedules', 'update');
    const input = parseInput(scheduleUpdateSchema, body);
    const current = await this.resolve(ref);
    // Whoever changes what a schedule does (its action, target or rule, or enables it) is who it
    // acts for from then on, within their own rights; a rename or a disable changes no one.
    const retargets =
      targetFieldsOf(input).length > 0 &&
      JSON.stringify(targetColumns(input)) !==
        JSON.stringify(targetColumns({ nas_share_ids: current.share_ids, pool_id: current.pool_id, nas_id: current.nas_id, all_shares: current.all_shares }));
    const takesOver =
      (input.action !== undefined && input.action !== current.action) ||
      retargets ||
      (input.rrule !== undefined && input.rrule !== current.rrule) ||
      (input.enabled === true && !current.enabled);
    if (takesOver)
      this.authorizeActing(
        principal,
        input.action ?? current.action,
        targetFieldsOf(input).length > 0 ? input : { pool_id: current.pool_id, nas_id: current.nas_id },
      );
    if (targetFieldsOf(input).length > 0) await this.checkTarget(input);
    const { nas_share_ids, pool_id, nas_id, all_shares, ...fields } = input;
    const patch: SchedulePatch = {
      ...fields,
      ...(targetFieldsOf(input).length > 0 ? targetColumns({ nas_share_ids, pool_id, nas_id, all_shares }) : {}),
      ...(takesOver ? creatorColumns(principal) : {}),
    };
    const enabled = input.enabled ?? current.enabled;
    const replans = (input.rrule !== undefined && input.rrule !== current.rrule) || (input.enabled === true && !current.enabled);
    if (replans) {
      const first = await this.firstRun(principal, input.rrule ?? current.rrule);
      patch.next_run_at = enabled ? first : null;
      patch.retry_at = null;
      patch.last_error = null;
    }
    // Disabled: nothing planned, so the list's `next` filter and order see what the answer shows.
    if (!enabled) patch.next_run_at = null;
    const updated = await this.audit.change(principal, async (stores) => {
      const record = await stores.schedules.update(current.id, patch);
      if (!record) throw DomainError.notFound('schedule_id', ref);
      const changes = describeChanges(presentSchedule(current), presentSchedule(record), input);
      return { result: record, audit: { action: 'update', resource: scheduleAudit(record), changes } };
    });
    this.changed(input.enabled === true && !current.enabled ? updated : undefined);
    return presentSchedule(updated);
  }

  async destroy(principal: Principal, ref: string): Promise<void> {
    authorize(principal, 'schedules', 'destroy');
    const current = await this.resolve(ref);
    await this.audit.change(principal, async (stores) => ({
      result: await stores.schedules.delete(current.id),
      audit: { action: 'delete', resource: scheduleAudit(current), changes: null },
    }));
  }

  /**
   * A schedule acts with the rights of who saves it (docs/decisions/107-…): they must hold the
   * scope of its action on shares, and may name a pool or a NAS only if they may see it. Checked
   * before the target is looked up, so a refusal never tells which ids exist.
   */
  private authorizeActing(principal: Principal, action: ScheduleAction, target: Pick<ScheduleUpdate, 'pool_id' | 'nas_id'>): void {
    authorize(principal, 'nas_shares', action);
    if (target.pool_id != null) authorize(principal, 'pools', 'show');
    if (target.nas_id != null) authorize(principal, 'nas', 'show');
  }

  /**
   * The first run of a rule from now, checked as a submitted rule (its lowest interval, a COUNT
   * it can evaluate) in the API's own worker, at the caller's cost; 422 on `rrule` with the reason.
   */
  private async firstRun(principal: Principal, rrule: string): Promise<string | null> {
    const { schedule_min_interval_seconds: minSeconds } = await this.settings.current();
    try {
      const first = await this.#gate.run(
        principal,
        () => this.ruleChecks.check(rrule, this.deps.clock(), minSeconds * 1000),
        (error) => error instanceof RecurrenceError && error.timedOut,
      );
      return first?.toISOString() ?? null;
    } catch (error) {
      if (!(error instanceof RecurrenceError)) throw error;
      throw new DomainError('validation', `rrule ${error.message}`, { details: { rrule: [{ error: 'invalid' }] } });
    }
  }

  /** The target's shares, pool or NAS exist (422 `not_found` on the field otherwise). */
  private async checkTarget(input: Pick<ScheduleUpdate, 'nas_share_ids' | 'pool_id' | 'nas_id'>): Promise<void> {
    const { storage } = this.deps;
    const missing = (field: string, value: number) =>
      new DomainError('validation', `${field}: no such ${field === 'pool_id' ? 'pool' : field === 'nas_id' ? 'NAS' : 'share'} ${value}`, {
        details: { [field]: [{ error: 'not_found', value }] },
      });
    for (const id of input.nas_share_ids ?? []) if (!(await storage.shares.get(id))) throw missing('nas_share_ids', id);
    if (input.pool_id != null && !(await storage.pools.get(input.pool_id))) throw missing('pool_id', input.pool_id);
    if (input.nas_id != null && !(await storage.nas.get(input.nas_id))) throw missing('nas_id', input.nas_id);
  }
}
