import { sql, type Kysely, type Selectable } from 'kysely';
import type {
  RunLease,
  ScheduleAdvance,
  ScheduleAim,
  ScheduleInsert,
  SchedulePatch,
  ScheduleRecord,
  ScheduleRunRecord,
  ScheduleStore,
} from '../../ports/schedule-store.js';
import type { ScheduleAction } from '../../domain/schedule.js';
import type { ListQuery } from '../../list-query/list-query.js';
import type { Database } from './kysely-schema.js';
import { scheduleColumns as columns, type ScheduleTable } from '../../tables/schedules.table.js';
import { scheduleRunColumns as runColumns, type ScheduleRunTable } from '../../tables/schedule-runs.table.js';
import { parseJsonText, toJsonText } from '../../tables/json-text.js';
import type { DialectQuirks } from './kysely-dialect-quirks.js';
import { listRows } from './kysely-list-rows.js';
import { definedOnly, uniqueWrite } from './kysely-store-helpers.js';

type Row = Selectable<ScheduleTable>;

function toRecord(row: Row): ScheduleRecord {
  return {
    ...row,
    action: row.action as ScheduleAction,
    share_ids: row.share_ids === null ? null : parseJsonText(row.share_ids),
    all_shares: Boolean(row.all_shares),
    enabled: Boolean(row.enabled),
    missed_count: Number(row.missed_count),
    skipped_count: Number(row.skipped_count),
    not_started_count: Number(row.not_started_count),
  };
}

function toRun(row: Selectable<ScheduleRunTable>): ScheduleRunRecord {
  return {
    ...row,
    after_share_id: Number(row.after_share_id),
    queued_count: Number(row.queued_count),
    not_started_count: Number(row.not_started_count),
  };
}

function toColumns(values: SchedulePatch) {
  return definedOnly({
    ...values,
    share_ids: values.share_ids === undefined ? undefined : values.share_ids === null ? null : toJsonText(values.share_ids),
    all_shares: values.all_shares === undefined ? undefined : values.all_shares ? 1 : 0,
    enabled: values.enabled === undefined ? undefined : values.enabled ? 1 : 0,
  });
}

export class KyselyScheduleStore implements ScheduleStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly quirks: DialectQuirks,
    private readonly now: () => string,
  ) {}

  async list(query: ListQuery) {
    const page = await listRows<Row>(this.db, this.quirks, 'schedules', columns, query);
    return { count: page.count, items: page.items.map(toRecord) };
  }

  async get(id: number) {
    const row = await this.db.selectFrom('schedules').select(columns).where('id', '=', id).executeTakeFirst();
    return row && toRecord(row);
  }

  async findByName(name: string) {
    const row = await this.db.selectFrom('schedules').select(columns).where('name', '=', name).executeTakeFirst();
    return row && toRecord(row);
  }

  async create(values: ScheduleInsert) {
    const at = this.now();
    const row = await uniqueWrite(this.quirks, 'name', values.name, () =>
      this.db
        .insertInto('schedules')
        .values({
          ...toColumns(values),
          name: values.name,
          action: values.action,
          rrule: values.rrule,
          all_shares: values.all_shares ? 1 : 0,
          enabled: values.enabled ? 1 : 0,
          created_at: at,
          updated_at: at,
        })
        .returning(columns)
        .executeTakeFirstOrThrow(),
    );
    return toRecord(row);
  }

  async update(id: number, patch: SchedulePatch) {
    const row = await uniqueWrite(this.quirks, 'name', patch.name, () =>
      this.db
        .updateTable('schedules')
        .set({ ...toColumns(patch), updated_at: this.now() })
        .where('id', '=', id)
        .returning(columns)
        .executeTakeFirst(),
    );
    return row && toRecord(row);
  }

  async delete(id: number) {
    const result = await this.db.deleteFrom('schedules').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async due(now: string, limit: number) {
    const rows = await this.db
      .selectFrom('schedules')
      .select(columns)
      .where('enabled', '=', 1)
      .where('next_run_at', '<=', now)
      .where((eb) => eb.or([eb('retry_at', 'is', null), eb('retry_at', '<=', now)]))
      .orderBy('next_run_at')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map(toRecord);
  }

  async nextDueAt() {
    const row = await this.db
      .selectFrom('schedules')
      // A schedule backing off is due again at its retry time, not its (passed) due time.
      .select(sql<string | null>`min(case when retry_at > next_run_at then retry_at else next_run_at end)`.as('at'))
      .where('enabled', '=', 1)
      .executeTakeFirst();
    return row?.at ?? undefined;
  }

  async advance(id: number, advance: ScheduleAdvance) {
    const result = await this.db
      .updateTable('schedules')
      .set({
        next_run_at: advance.nextRunAt,
        last_run_at: advance.ranAt,
        missed_count: sql`missed_count + ${advance.missed}`,
        retry_at: null,
        last_error: null,
      })
      .where('id', '=', id)
      .where('enabled', '=', 1)
      .where('next_run_at', '=', advance.dueAt)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async countSkipped(id: number) {
    await this.db
      .updateTable('schedules')
      .set({ skipped_count: sql`skipped_count + 1` })
      .where('id', '=', id)
      .execute();
  }

  async backOff(id: number, dueAt: string, retryAt: string, reason: string) {
    await this.db.updateTable('schedules').set({ retry_at: retryAt, last_error: reason }).where('id', '=', id).where('next_run_at', '=', dueAt).execute();
  }

  async aimingAt(target: { poolId: number } | { nasId: number } | { shareId: number }): Promise<ScheduleAim[]> {
    if ('poolId' in target) return this.db.selectFrom('schedules').select(['id', 'name']).where('pool_id', '=', target.poolId).orderBy('id').execute();
    if ('nasId' in target) return this.db.selectFrom('schedules').select(['id', 'name']).where('nas_id', '=', target.nasId).orderBy('id').execute();
    // Share ids are a JSON array: read the schedules naming shares and look (there are few schedules).
    const rows = await this.db.selectFrom('schedules').select(['id', 'name', 'share_ids']).where('share_ids', 'is not', null).orderBy('id').execute();
    return rows.filter((row) => parseJsonText(row.share_ids!).includes(target.shareId)).map(({ id, name }) => ({ id, name }));
  }

  async startRun(scheduleId: number, dueAt: string, startedAt: string, lease: RunLease) {
    const row = await this.db
      .insertInto('schedule_runs')
      .values({ schedule_id: scheduleId, due_at: dueAt, started_at: startedAt, lease_owner: lease.owner, lease_until: lease.until })
      .returning(runColumns)
      .executeTakeFirstOrThrow();
    return toRun(row);
  }

  async stepRun(runId: number, owner: string, shareId: number, outcome: 'queued' | 'not_started', leaseUntil: string) {
    const counter = outcome === 'queued' ? 'queued_count' : 'not_started_count';
    const result = await this.db
      .updateTable('schedule_runs')
      .set({ after_share_id: shareId, [counter]: sql`${sql.ref(counter)} + 1`, lease_until: leaseUntil })
      .where('id', '=', runId)
      .where('lease_owner', '=', owner)
      .where('finished_at', 'is', null)
      .executeTakeFirst();
    const held = Number(result.numUpdatedRows) === 1;
    if (held && outcome === 'not_started')
      await this.db
        .updateTable('schedules')
        .set({ not_started_count: sql`not_started_count + 1` })
        .where('id', '=', (eb) => eb.selectFrom('schedule_runs').select('schedule_id').where('id', '=', runId))
        .execute();
    return held;
  }

  async renewRun(runId: number, owner: string, leaseUntil: string) {
    const result = await this.db
      .updateTable('schedule_runs')
      .set({ lease_until: leaseUntil })
      .where('id', '=', runId)
      .where('lease_owner', '=', owner)
      .where('finished_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async releaseRun(runId: number, owner: string) {
    await this.db.updateTable('schedule_runs').set({ lease_owner: null, lease_until: null }).where('id', '=', runId).where('lease_owner', '=', owner).execute();
  }

  async takeOverRun(now: string, lease: RunLease, heldByTheDead = false) {
    for (;;) {
      const candidate = await this.db
        .selectFrom('schedule_runs')
        .select(['id', 'lease_until'])
        .where('finished_at', 'is', null)
        .where((eb) => eb.or([eb('lease_until', 'is', null), heldByTheDead ? eb('lease_owner', '<>', lease.owner) : eb('lease_until', '<', now)]))
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
      if (!candidate) return undefined;
      // Compare-and-set on the lease read: of replicas taking one run over, one wins.
      const row = await this.db
        .updateTable('schedule_runs')
        .set({ lease_owner: lease.owner, lease_until: lease.until })
        .where('id', '=', candidate.id)
        .where('finished_at', 'is', null)
        .where((eb) => (candidate.lease_until === null ? eb('lease_until', 'is', null) : eb('lease_until', '=', candidate.lease_until)))
        .returning(runColumns)
        .executeTakeFirst();
      if (row) return toRun(row);
    }
  }

  async finishRun(runId: number, owner: string, finishedAt: string) {
    await this.db
      .updateTable('schedule_runs')
      .set({ finished_at: finishedAt, lease_owner: null, lease_until: null })
      .where('id', '=', runId)
      .where('lease_owner', '=', owner)
      .execute();
  }

  async getRun(runId: number) {
    const row = await this.db.selectFrom('schedule_runs').select(runColumns).where('id', '=', runId).executeTakeFirst();
    return row && toRun(row);
  }
}
