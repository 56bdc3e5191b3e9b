import type { Kysely } from 'kysely';
import type { SilenceInsert, SilencePatch, SilenceRecord, SilenceStore, SilenceWindow } from '../../ports/silence-store.js';
import type { ListQuery } from '../../list-query/list-query.js';
import type { Database } from './kysely-schema.js';
import type { DialectQuirks } from './kysely-dialect-quirks.js';
import { silenceColumns as columns, type SilenceRow } from '../../tables/silences.table.js';
import { parseJsonText, toJsonText } from '../../tables/json-text.js';
import { listRows } from './kysely-list-rows.js';
import { definedOnly } from './kysely-store-helpers.js';

const toRecord = (row: SilenceRow): SilenceRecord => ({
  ...row,
  id: Number(row.id),
  matchers: parseJsonText(row.matchers),
  until_cleared: Boolean(row.until_cleared),
  duration_seconds: row.duration_seconds === null ? null : Number(row.duration_seconds),
  created_by: row.created_by === null ? null : Number(row.created_by),
});

function toColumns(values: SilencePatch) {
  const { matchers, until_cleared, ...rest } = definedOnly(values);
  return {
    ...rest,
    ...(matchers === undefined ? {} : { matchers: toJsonText(matchers) }),
    ...(until_cleared === undefined ? {} : { until_cleared: until_cleared ? 1 : 0 }),
  };
}

/** Silences; their windows as columns, so the active ones are one indexed read. */
export class KyselySilenceStore implements SilenceStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly quirks: DialectQuirks,
    private readonly now: () => string,
  ) {}

  async list(query: ListQuery) {
    const page = await listRows<SilenceRow>(this.db, this.quirks, 'silences', columns, query);
    return { count: page.count, items: page.items.map(toRecord) };
  }

  async get(id: number) {
    const row = await this.db.selectFrom('silences').select(columns).where('id', '=', id).executeTakeFirst();
    return row && toRecord(row);
  }

  async count() {
    const row = await this.db
      .selectFrom('silences')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async create(values: SilenceInsert) {
    const at = this.now();
    const row = await this.db
      .insertInto('silences')
      .values({ ...toColumns(values), created_by: values.created_by, created_at: at, updated_at: at } as never)
      .returning(columns)
      .executeTakeFirstOrThrow();
    return toRecord(row);
  }

  async update(id: number, patch: SilencePatch) {
    const row = await this.db
      .updateTable('silences')
      .set({ ...toColumns(patch), updated_at: this.now() })
      .where('id', '=', id)
      .returning(columns)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  async delete(id: number) {
    const result = await this.db.deleteFrom('silences').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async activeAt(at: string) {
    const rows = await this.db
      .selectFrom('silences')
      .select(columns)
      .where('window_starts_at', '<=', at)
      .where((eb) => eb.or([eb('window_ends_at', 'is', null), eb('window_ends_at', '>', at)]))
      .orderBy('id')
      .execute();
    return rows.map(toRecord);
  }

  async windowsOver(at: string) {
    const rows = await this.db.selectFrom('silences').select(columns).where('rrule', 'is not', null).where('window_ends_at', '<=', at).orderBy('id').execute();
    return rows.map(toRecord);
  }

  async moveWindow(id: number, from: string | null, window: SilenceWindow | null) {
    const result = await this.db
      .updateTable('silences')
      .set({ window_starts_at: window?.window_starts_at ?? null, window_ends_at: window?.window_ends_at ?? null })
      .where('id', '=', id)
      .where((eb) => (from === null ? eb('window_ends_at', 'is', null) : eb('window_ends_at', '=', from)))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async endUntilCleared(ids: readonly number[], at: string) {
    if (ids.length === 0) return;
    await this.db
      .updateTable('silences')
      .set({ ends_at: at, window_ends_at: at, updated_at: at })
      .where('id', 'in', ids)
      .where('until_cleared', '=', 1)
      .where('window_ends_at', 'is', null)
      .execute();
  }
}
