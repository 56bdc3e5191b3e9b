import { sql, type Kysely, type RawBuilder } from 'kysely';
import type {
  NasShareInsert,
  NasSharePatch,
  NasShareRecord,
  NasShareStore,
  ShareGaugeRow,
  ShareCapacityRow,
  ShareCapacitySample,
  ShareForecast,
  ShareScanRecord,
} from '../../ports/storage.js';
import { inTransaction } from './kysely-transaction.js';
import type { ListQuery } from '../../list-query/list-query.js';
import type { Database } from './kysely-schema.js';
import { nasShareColumns as columns, type NasShareRow } from '../../tables/nas-shares.table.js';
import { shareScanColumns as scanColumns } from '../../tables/share-scans.table.js';
import { parseJsonText, toJsonText } from '../../tables/json-text.js';
import type { ScanAnalytics } from '../../domain/scan-analytics.js';
import type { DialectQuirks } from './kysely-dialect-quirks.js';
import { listRows } from './kysely-list-rows.js';
import { definedOnly, uniqueWrite } from './kysely-store-helpers.js';
import { preparedArrayRows, type ArrayRowsReader, type PreparedReads } from './kysely-prepared.js';
import { shareGaugeField } from '../../ports/storage.js';
import type { MaybePromise } from '../../ports/maybe-promise.js';
import type { ListCache } from './kysely-list-cache.js';

type ShareRow = NasShareRow;

const nullableNumber = (value: number | string | null) => (value === null ? null : Number(value));

/**
 * A row as the port gives it: the forecast's JSON parsed, in place (a copy of every row read
 * would cost a show nearly as much as the read: see ShareService.present). Bigints are numbers
 * already on both adapters (postgres-int8.ts).
 */
function toRecord<T extends ShareRow | undefined>(row: T): T extends ShareRow ? NasShareRecord : undefined;
function toRecord(row: ShareRow | undefined): NasShareRecord | undefined {
  if (row === undefined) return undefined;
  const record = row as unknown as NasShareRecord & { capacity_forecast: ShareForecast | string | null };
  if (typeof record.capacity_forecast === 'string') record.capacity_forecast = JSON.parse(record.capacity_forecast) as ShareForecast;
  return record as NasShareRecord;
}

/** The /metrics read: each value of a `ShareGaugeRow`, selected in its place (shareGaugeField). */
function gaugeSelection(quirks: DialectQuirks): Record<keyof typeof shareGaugeField, RawBuilder<unknown>> {
  const seconds = (column: string) => quirks.epochSeconds(sql.ref<string | null>(column));
  return {
    id: sql.ref('s.id'),
    name: sql.ref('s.name'),
    nas_name: sql.ref('n.name'),
    pool_name: sql.ref('p.name'),
    health: sql.ref('s.health'),
    capacity_bytes: sql.ref('s.capacity_bytes'),
    free_bytes: sql.ref('s.free_bytes'),
    file_count: sql.ref('s.file_count'),
    file_size_sum: sql.ref('s.file_size_sum'),
    last_tested_at: seconds('s.last_tested_at'),
    last_scanned_at: seconds('s.last_scanned_at'),
    // Only the forecast's full_at, read by the database: no JSON parsed here a share.
    full_at: quirks.epochSeconds(quirks.jsonTextField(sql.ref<string | null>('s.capacity_forecast'), 'full_at')),
  };
}

export class KyselyNasShareStore implements NasShareStore {
  readonly #byId: (id: number) => MaybePromise<ShareRow | undefined>;
  /** Compiled at the first scrape: a store is built for each transaction that touches shares. */
  #gaugePage?: (after: number, limit: number) => Promise<ShareGaugeRow[]>;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly quirks: DialectQuirks,
    private readonly now: () => string,
    reads: PreparedReads,
    private readonly lists?: ListCache,
    private readonly arrayRows?: ArrayRowsReader,
  ) {
    this.#byId = reads.first((id: number) => db.selectFrom('nas_shares').select(columns).where('id', '=', id));
  }

  async list(query: ListQuery) {
    const page = await listRows<ShareRow>(this.db, this.quirks, 'nas_shares', columns, query, { cache: this.lists });
    return { ...page, items: page.items.map((row) => toRecord(row)) };
  }

  get(id: number): MaybePromise<NasShareRecord | undefined> {
    const row = this.#byId(id);
    return row instanceof Promise ? row.then((found) => toRecord(found)) : toRecord(row);
  }

  async findByName(name: string, nasId?: number) {
    let query = this.db.selectFrom('nas_shares').select(columns).where('name', '=', name);
    if (nasId !== undefined) query = query.where('nas_id', '=', nasId);
    return (await query.orderBy('id').limit(2).execute()).map((row) => toRecord(row));
  }

  async count() {
    const row = await this.db
      .selectFrom('nas_shares')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async create(values: NasShareInsert) {
    const at = this.now();
    return await uniqueWrite(this.quirks, 'name', values.name, () =>
      this.db
        .insertInto('nas_shares')
        .values({ ...values, created_at: at, updated_at: at })
        .returning(columns)
        .executeTakeFirstOrThrow()
        .then((row) => toRecord(row)),
    );
  }

  async update(id: number, patch: NasSharePatch) {
    return await uniqueWrite(this.quirks, 'name', patch.name, () =>
      this.db
        .updateTable('nas_shares')
        .set({ ...definedOnly(patch), updated_at: this.now() })
        .where('id', '=', id)
        .returning(columns)
        .executeTakeFirst()
        .then((row) => toRecord(row)),
    );
  }

  async clearPasswordsOfNas(nasId: number) {
    const result = await this.db
      .updateTable('nas_shares')
      .set({ password_enc: null, updated_at: this.now() })
      .where('nas_id', '=', nasId)
      .where('password_enc', 'is not', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async delete(id: number) {
    const result = await this.db.deleteFrom('nas_shares').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async recordTest(id: number, outcome: { status: 'completed' | 'failed'; at: string; capacity?: Omit<ShareCapacitySample, 'at'> }) {
    return await inTransaction(this.db, async (trx) => {
      const before = await trx.selectFrom('nas_shares').select(columns).where('id', '=', id).modifyEnd(sql.raw(this.quirks.rowLockClause)).executeTakeFirst();
      if (!before) return undefined;
      await trx
        .updateTable('nas_shares')
        .set({
          health: outcome.status === 'completed' ? 'ok' : 'unreachable',
          last_tested_at: outcome.at,
          last_test_status: outcome.status,
          ...(outcome.capacity === undefined ? {} : { ...outcome.capacity, capacity_checked_at: outcome.at }),
        })
        .where('id', '=', id)
        .execute();
      if (outcome.capacity !== undefined)
        await trx
          .insertInto('share_capacity_samples')
          .values({ share_id: id, at: outcome.at, ...outcome.capacity })
          .execute();
      return toRecord(before as ShareRow);
    });
  }

  async recordScan(id: number, scan: Omit<ShareScanRecord, 'id' | 'share_id'>, analytics?: ScanAnalytics) {
    await inTransaction(this.db, async (trx) => {
      const updated = await trx
        .updateTable('nas_shares')
        .set({
          file_count: scan.file_count,
          file_size_sum: scan.file_size_sum,
          last_scanned_at: scan.at,
          ...(scan.capacity_bytes === null || scan.free_bytes === null
            ? {}
            : { capacity_bytes: scan.capacity_bytes, free_bytes: scan.free_bytes, capacity_checked_at: scan.at }),
        })
        .where('id', '=', id)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) return;
      const inserted = await trx
        .insertInto('share_scans')
        .values({ share_id: id, ...scan })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (analytics !== undefined)
        await trx
          .insertInto('share_scan_analytics')
          .values({ scan_id: inserted.id, analytics: toJsonText(analytics) })
          .execute();
      if (scan.capacity_bytes !== null && scan.free_bytes !== null)
        await trx
          .insertInto('share_capacity_samples')
          .values({ share_id: id, at: scan.at, capacity_bytes: scan.capacity_bytes, free_bytes: scan.free_bytes })
          .execute();
    });
  }

  async capacityHistory(id: number, since: string, limit: number) {
    // The newest `limit`, returned oldest first.
    const rows = await this.db
      .selectFrom('share_capacity_samples')
      .select(['at', 'capacity_bytes', 'free_bytes'])
      .where('share_id', '=', id)
      .where('at', '>=', since)
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.reverse().map((row) => ({ at: row.at, capacity_bytes: Number(row.capacity_bytes), free_bytes: Number(row.free_bytes) }));
  }

  async saveForecast(id: number, forecast: ShareForecast | null) {
    await this.db
      .updateTable('nas_shares')
      .set({ capacity_forecast: forecast === null ? null : toJsonText(forecast) })
      .where('id', '=', id)
      .execute();
  }

  async purgeCapacitySamples(before: string, limit: number) {
    // A share's latest reading stays whatever its age, as its latest scan does.
    const result = await sql`delete from share_capacity_samples where id in (
        select old.id from share_capacity_samples old
        where old.at < ${before} and exists (select 1 from share_capacity_samples newer where newer.share_id = old.share_id and newer.at > old.at)
        order by old.at limit ${limit})`.execute(this.db);
    return Number(result.numAffectedRows ?? 0);
  }

  async listScans(id: number, query: ListQuery) {
    const page = await listRows<ShareScanRecord>(this.db, this.quirks, 'share_scans', scanColumns, {
      ...query,
      filters: [...query.filters, { field: 'share_id', op: 'eq', values: [id] }],
    });
    return {
      count: page.count,
      items: page.items.map((row) => ({
        ...row,
        file_count: Number(row.file_count),
        file_size_sum: Number(row.file_size_sum),
        capacity_bytes: nullableNumber(row.capacity_bytes),
        free_bytes: nullableNumber(row.free_bytes),
      })),
    };
  }

  async getScan(id: number, scanId: number) {
    const row = await this.db
      .selectFrom('share_scans as s')
      .leftJoin('share_scan_analytics as a', 'a.scan_id', 's.id')
      .select(scanColumns.map((column) => `s.${column}` as const))
      .select('a.analytics')
      .where('s.id', '=', scanId)
      .where('s.share_id', '=', id)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    const { analytics, ...scan } = row;
    return {
      ...scan,
      file_count: Number(scan.file_count),
      file_size_sum: Number(scan.file_size_sum),
      capacity_bytes: nullableNumber(scan.capacity_bytes),
      free_bytes: nullableNumber(scan.free_bytes),
      analytics: analytics === null ? null : parseJsonText(analytics),
    };
  }

  async capacity(since: string) {
    // Three probes a share on (share_id, at, id): the baseline (its last scan at or before
    // `since`, else its first after) and the latest scan, by id; the baseline's counts then by
    // primary key. The probes' select is materialized so that they run once a share (PostgreSQL
    // would otherwise copy them into each use of the baseline's id).
    const beforeSince = this.quirks.atOrBeforeOnParent(sql.ref('b.share_id'), sql.ref('n.id'), sql.ref('b.at'), since);
    type Row = Omit<ShareCapacityRow, 'capacity_forecast'> & { capacity_forecast: string | null };
    const { rows } = await sql<Row>`with s as materialized (select n.id, n.nas_id, n.pool_id, n.last_scanned_at, n.file_count, n.file_size_sum,
          n.capacity_bytes, n.free_bytes, n.capacity_checked_at, n.capacity_forecast,
          coalesce(
            (select b.id from share_scans b where b.share_id = n.id and ${beforeSince} order by b.share_id desc, b.at desc, b.id desc limit 1),
            (select f.id from share_scans f where f.share_id = n.id and f.at > ${since} order by f.at, f.id limit 1)) as base_scan_id,
          (select l.id from share_scans l where l.share_id = n.id order by l.at desc, l.id desc limit 1) as latest_scan_id
        from nas_shares n)
      select s.id, s.nas_id, s.pool_id, s.last_scanned_at, s.file_count, s.file_size_sum,
        s.capacity_bytes, s.free_bytes, s.capacity_checked_at, s.capacity_forecast,
        (select x.file_count from share_scans x where x.id = s.base_scan_id) as base_file_count,
        (select x.file_size_sum from share_scans x where x.id = s.base_scan_id) as base_file_size_sum,
        s.base_scan_id, s.latest_scan_id
      from s order by s.id`.execute(this.db);
    const number = (value: number | string | null) => (value === null ? null : Number(value));
    return rows.map((row) => ({
      ...row,
      file_count: Number(row.file_count),
      file_size_sum: Number(row.file_size_sum),
      base_file_count: number(row.base_file_count),
      base_file_size_sum: number(row.base_file_size_sum),
      base_scan_id: number(row.base_scan_id),
      latest_scan_id: number(row.latest_scan_id),
      capacity_bytes: number(row.capacity_bytes),
      free_bytes: number(row.free_bytes),
      capacity_forecast: row.capacity_forecast === null ? null : (JSON.parse(row.capacity_forecast) as ShareForecast),
    }));
  }

  async *gauges(pageSize: number): AsyncIterable<readonly ShareGaugeRow[]> {
    if (!Number.isSafeInteger(pageSize) || pageSize < 1) throw new RangeError(`a page of gauges holds at least one share, not ${pageSize}`);
    this.#gaugePage ??= preparedArrayRows<ShareGaugeRow, [number, number]>(
      this.db,
      (after: number, limit: number) => {
        const selection = gaugeSelection(this.quirks);
        const fields = (Object.keys(shareGaugeField) as Array<keyof typeof shareGaugeField>).sort((a, b) => shareGaugeField[a] - shareGaugeField[b]);
        // Joined on primary keys, a range of the shares' own: whatever the size of the job, scan or sample tables.
        return this.db
          .selectFrom('nas_shares as s')
          .innerJoin('nas as n', 'n.id', 's.nas_id')
          .leftJoin('pools as p', 'p.id', 's.pool_id')
          .select(fields.map((field) => selection[field].as(field)))
          .where('s.id', '>', after)
          .orderBy('s.id')
          .limit(limit);
      },
      2,
      this.arrayRows,
    );
    for (let after = 0; ;) {
      const page = await this.#gaugePage(after, pageSize);
      if (page.length > 0) yield page;
      if (page.length < pageSize) return;
      after = page[page.length - 1]![shareGaugeField.id];
    }
  }

  async purgeScans(before: string, limit: number) {
    // A share's latest scan stays whatever its age: capacity totals read it.
    const result = await sql`delete from share_scans where id in (
        select old.id from share_scans old
        where old.at < ${before} and exists (select 1 from share_scans newer where newer.share_id = old.share_id and newer.at > old.at)
        order by old.at limit ${limit})`.execute(this.db);
    return Number(result.numAffectedRows ?? 0);
  }
}
