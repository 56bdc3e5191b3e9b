import { sql, type Kysely } from 'kysely';
import type { NasShareInsert, NasSharePatch, NasShareRecord, NasShareStore, ShareCapacityRow, ShareScanRecord } from '../../ports/storage.js';
import { inTransaction } from './kysely-transaction.js';
import type { ListQuery } from '../../list-query/list-query.js';
import type { Database } from './kysely-schema.js';
import type { DialectQuirks } from './kysely-dialect-quirks.js';
import { listRows } from './kysely-list-rows.js';
import { definedOnly, uniqueWrite } from './kysely-store-helpers.js';
import type { PreparedReads } from './kysely-prepared.js';
import type { MaybePromise } from '../../ports/maybe-promise.js';
import type { ListCache } from './kysely-list-cache.js';

const columns = [
  'id',
  'nas_id',
  'pool_id',
  'name',
  'path',
  'options',
  'username',
  'password_enc',
  'file_count',
  'file_size_sum',
  'health',
  'last_tested_at',
  'last_test_status',
  'last_scanned_at',
] as const;
const scanColumns = ['id', 'share_id', 'at', 'file_count', 'file_size_sum', 'duration_ms'] as const;

export class KyselyNasShareStore implements NasShareStore {
  readonly #byId: (id: number) => MaybePromise<NasShareRecord | undefined>;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly quirks: DialectQuirks,
    private readonly now: () => string,
    reads: PreparedReads,
    private readonly lists?: ListCache,
  ) {
    this.#byId = reads.first((id: number) => db.selectFrom('nas_shares').select(columns).where('id', '=', id));
  }

  list(query: ListQuery) {
    return listRows<NasShareRecord>(this.db, this.quirks, 'nas_shares', columns, query, this.lists);
  }

  get(id: number) {
    return this.#byId(id);
  }

  async findByName(name: string, nasId?: number) {
    let query = this.db.selectFrom('nas_shares').select(columns).where('name', '=', name);
    if (nasId !== undefined) query = query.where('nas_id', '=', nasId);
    return await query.orderBy('id').limit(2).execute();
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
        .executeTakeFirstOrThrow(),
    );
  }

  async update(id: number, patch: NasSharePatch) {
    return await uniqueWrite(this.quirks, 'name', patch.name, () =>
      this.db
        .updateTable('nas_shares')
        .set({ ...definedOnly(patch), updated_at: this.now() })
        .where('id', '=', id)
        .returning(columns)
        .executeTakeFirst(),
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

  async recordTest(id: number, outcome: { status: 'completed' | 'failed'; at: string }) {
    return await inTransaction(this.db, async (trx) => {
      const before = await trx.selectFrom('nas_shares').select(columns).where('id', '=', id).modifyEnd(sql.raw(this.quirks.rowLockClause)).executeTakeFirst();
      if (!before) return undefined;
      await trx
        .updateTable('nas_shares')
        .set({ health: outcome.status === 'completed' ? 'ok' : 'unreachable', last_tested_at: outcome.at, last_test_status: outcome.status })
        .where('id', '=', id)
        .execute();
      return before as NasShareRecord;
    });
  }

  async recordScan(id: number, scan: Omit<ShareScanRecord, 'id' | 'share_id'>) {
    await inTransaction(this.db, async (trx) => {
      const updated = await trx
        .updateTable('nas_shares')
        .set({ file_count: scan.file_count, file_size_sum: scan.file_size_sum, last_scanned_at: scan.at })
        .where('id', '=', id)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) > 0)
        await trx
          .insertInto('share_scans')
          .values({ share_id: id, ...scan })
          .execute();
    });
  }

  async listScans(id: number, query: ListQuery) {
    const page = await listRows<ShareScanRecord>(this.db, this.quirks, 'share_scans', scanColumns, {
      ...query,
      filters: [...query.filters, { field: 'share_id', op: 'eq', values: [id] }],
    });
    return { count: page.count, items: page.items.map((row) => ({ ...row, file_count: Number(row.file_count), file_size_sum: Number(row.file_size_sum) })) };
  }

  async capacity(since: string) {
    const baseline = (column: 'file_count' | 'file_size_sum') => sql<number | null>`coalesce(
        (select b.${sql.ref(column)} from share_scans b where b.share_id = s.id and b.at <= ${since} order by b.at desc, b.id desc limit 1),
        (select f.${sql.ref(column)} from share_scans f where f.share_id = s.id and f.at > ${since} order by f.at, f.id limit 1))`;
    const { rows } = await sql<ShareCapacityRow>`select s.id, s.nas_id, s.pool_id, s.last_scanned_at, s.file_count, s.file_size_sum,
        ${baseline('file_count')} as base_file_count, ${baseline('file_size_sum')} as base_file_size_sum
      from nas_shares s order by s.id`.execute(this.db);
    const number = (value: number | string | null) => (value === null ? null : Number(value));
    return rows.map((row) => ({
      ...row,
      file_count: Number(row.file_count),
      file_size_sum: Number(row.file_size_sum),
      base_file_count: number(row.base_file_count),
      base_file_size_sum: number(row.base_file_size_sum),
    }));
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
