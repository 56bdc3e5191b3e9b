import type { Kysely } from 'kysely';
import type { NasShareInsert, NasSharePatch, NasShareRecord, NasShareStore } from '../../ports/storage.js';
import type { ListQuery } from '../../list-query/list-query.js';
import type { Database } from './kysely-schema.js';
import type { DialectQuirks } from './kysely-dialect-quirks.js';
import { listRows } from './kysely-list-rows.js';
import { definedOnly, uniqueWrite } from './kysely-store-helpers.js';
import type { PreparedReads } from './kysely-prepared.js';
import type { ListCache } from './kysely-list-cache.js';

const columns = ['id', 'nas_id', 'pool_id', 'name', 'path', 'options', 'username', 'password_enc', 'file_count', 'file_size_sum'] as const;

export class KyselyNasShareStore implements NasShareStore {
  readonly #byId: (id: number) => Promise<NasShareRecord | undefined>;

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
    return listRows<NasShareRecord>(this.db, 'nas_shares', columns, query, this.lists);
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
}
