import { sql, type Kysely, type Selectable } from 'kysely';
import type { ScheduleAdvance, ScheduleInsert, SchedulePatch, ScheduleRecord, ScheduleStore } from '../../ports/schedule-store.js';
import type { ScheduleAction } from '../../domain/schedule.js';
import type { ListQuery } from '../../list-query/list-query.js';
import type { Database, ScheduleTable } from './kysely-schema.js';
import type { DialectQuirks } from './kysely-dialect-quirks.js';
import { listRows } from './kysely-list-rows.js';
import { definedOnly, uniqueWrite } from './kysely-store-helpers.js';

const columns = [
  'id',
  'name',
  'action',
  'share_ids',
  'pool_id',
  'nas_id',
  'all_shares',
  'rrule',
  'enabled',
  'next_run_at',
  'last_run_at',
  'missed_count',
  'skipped_count',
  'created_at',
  'updated_at',
] as const;

type Row = Pick<Selectable<ScheduleTable>, (typeof columns)[number]>;

function toRecord(row: Row): ScheduleRecord {
  return {
    ...row,
    action: row.action as ScheduleAction,
    share_ids: row.share_ids === null ? null : (JSON.parse(row.share_ids) as number[]),
    all_shares: Boolean(row.all_shares),
    enabled: Boolean(row.enabled),
    missed_count: Number(row.missed_count),
    skipped_count: Number(row.skipped_count),
  };
}

function toColumns(values: SchedulePatch) {
  return definedOnly({
    ...values,
    share_ids: values.share_ids === undefined ? undefined : values.share_ids === null ? null : JSON.stringify(values.share_ids),
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
      .orderBy('next_run_at')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map(toRecord);
  }

  async nextDueAt() {
    const row = await this.db
      .selectFrom('schedules')
      .select((eb) => eb.fn.min('next_run_at').as('at'))
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
}
