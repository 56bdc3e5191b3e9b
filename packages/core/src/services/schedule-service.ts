import type { CoreDeps } from './core-deps.js';
import type { Principal } from '../scopes/principal.js';
import type { ScheduleInsert, SchedulePatch, ScheduleRecord } from '../ports/schedule-store.js';
import { authorize } from '../scopes/scope-check.js';
import { parseInput } from '../validation/zod-details.js';
import { DomainError } from '../errors/domain-error.js';
import { scheduleCreateSchema, scheduleListSpec, scheduleUpdateSchema, targetFieldsOf, type Schedule, type ScheduleUpdate } from '../domain/schedule.js';
import { parseListQuery, type RawQuery } from '../list-query/parse-list-query.js';
import { resolveRef } from './resolve-ref.js';
import { auditResource, describeChanges, type AuditTrail } from './audit-trail.js';
import { RecurrenceError, type Recurrences } from '../schedules/recurrence.js';

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

/** `/schedules` (issue 23, DESIGN §5.23): RRULE schedules of share tests and scans. */
export class ScheduleService {
  constructor(
    private readonly deps: CoreDeps,
    private readonly audit: AuditTrail,
    private readonly recurrences: Recurrences,
    /** Tells the scheduler a schedule changed, so a sooner run is not slept through. */
    private readonly changed: () => void = () => {},
  ) {}

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
    await this.checkTarget(input);
    // Checked whether enabled or not; a disabled schedule plans nothing (next null) until enabled.
    const first = await this.firstRun(input.rrule);
    const next = input.enabled ? first : null;
    const values: ScheduleInsert = {
      name: input.name,
      action: input.action,
      rrule: input.rrule,
      enabled: input.enabled,
      next_run_at: next,
      ...targetColumns(input),
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
    if (targetFieldsOf(input).length > 0) await this.checkTarget(input);
    const { nas_share_ids, pool_id, nas_id, all_shares, ...fields } = input;
    const patch: SchedulePatch = { ...fields, ...(targetFieldsOf(input).length > 0 ? targetColumns({ nas_share_ids, pool_id, nas_id, all_shares }) : {}) };
    const enabled = input.enabled ?? current.enabled;
    const replans = (input.rrule !== undefined && input.rrule !== current.rrule) || (input.enabled === true && !current.enabled);
    if (replans) {
      const first = await this.firstRun(input.rrule ?? current.rrule);
      patch.next_run_at = enabled ? first : null;
    }
    // Disabled: nothing planned, so the list's `next` filter and order see what the answer shows.
    if (!enabled) patch.next_run_at = null;
    const updated = await this.audit.change(principal, async (stores) => {
      const record = await stores.schedules.update(current.id, patch);
      if (!record) throw DomainError.notFound('schedule_id', ref);
      const changes = describeChanges(presentSchedule(current), presentSchedule(record), input);
      return { result: record, audit: { action: 'update', resource: scheduleAudit(record), changes } };
    });
    this.changed();
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

  /** The first run of a rule from now; 422 on `rrule` with the parser's reason. */
  private async firstRun(rrule: string): Promise<string | null> {
    try {
      return (await this.recurrences.next(rrule, this.deps.clock()))?.toISOString() ?? null;
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
