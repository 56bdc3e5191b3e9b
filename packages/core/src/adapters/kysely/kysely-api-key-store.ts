import { inTransaction } from './kysely-transaction.js';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { ApiKeyRecord, ApiKeyStore } from '../../ports/storage.js';
import type { ListQuery } from '../../list-query/list-query.js';
import type { Database } from './kysely-schema.js';
import { apiKeyColumns as columns, type ApiKeyTable } from '../../tables/api-keys.table.js';
import { parseJsonText, toJsonText } from '../../tables/json-text.js';
import { listRows } from './kysely-list-rows.js';
import type { PreparedReads } from './kysely-prepared.js';
import type { MaybePromise } from '../../ports/maybe-promise.js';
import type { DialectQuirks } from './kysely-dialect-quirks.js';

function toRecord(row: Selectable<ApiKeyTable>): ApiKeyRecord {
  return { ...row, scopes: parseJsonText(row.scopes) };
}

export class KyselyApiKeyStore implements ApiKeyStore {
  readonly #byHash: (keyHash: string) => MaybePromise<Selectable<ApiKeyTable> | undefined>;

  constructor(
    private readonly db: Kysely<Database>,
    reads: PreparedReads,
    private readonly quirks: DialectQuirks,
  ) {
    this.#byHash = reads.first((keyHash: string) => db.selectFrom('api_keys').select(columns).where('key_hash', '=', keyHash));
  }

  async create(values: Omit<ApiKeyRecord, 'id' | 'last_used_at'>) {
    const row = await this.db
      .insertInto('api_keys')
      .values({ ...values, scopes: toJsonText(values.scopes), last_used_at: null })
      .returning(columns)
      .executeTakeFirstOrThrow();
    return toRecord(row);
  }

  async createWithinOwnerCap(values: Omit<ApiKeyRecord, 'id' | 'last_used_at'>, cap: number) {
    const owner = values.owner_user_id;
    if (owner === null) return this.create(values);
    // Count and insert in one statement, under a lock per owner: on PostgreSQL two creates would
    // otherwise each count without seeing the other's insert and both pass a cap with room for one.
    const row = await inTransaction(this.db, async (trx) => {
      await this.quirks.lockUntilCommit(trx, `dms_api_keys_owner_${owner}`);
      const held = trx
        .selectFrom('api_keys')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('owner_user_id', '=', owner);
      const record = { ...values, scopes: toJsonText(values.scopes), last_used_at: null };
      const names = Object.keys(record) as Array<keyof typeof record>;
      return await trx
        .insertInto('api_keys')
        .columns(names)
        .expression(trx.selectNoFrom(names.map((name) => sql.val(record[name]).as(name))).where(sql<boolean>`(${held}) < ${cap}`))
        .returning(columns)
        .executeTakeFirst();
    });
    return row && toRecord(row);
  }

  async findByHash(keyHash: string) {
    const row = await this.#byHash(keyHash);
    return row && toRecord(row);
  }

  async get(id: number) {
    const row = await this.db.selectFrom('api_keys').select(columns).where('id', '=', id).executeTakeFirst();
    return row && toRecord(row);
  }

  async list(query: ListQuery) {
    const page = await listRows<Selectable<ApiKeyTable>>(this.db, this.quirks, 'api_keys', columns, query);
    return { count: page.count, items: page.items.map(toRecord) };
  }

  async update(id: number, patch: Partial<Pick<ApiKeyRecord, 'name' | 'scopes' | 'role' | 'expires_at'>>) {
    const { scopes, ...rest } = patch;
    const set = { ...rest, ...(scopes === undefined ? {} : { scopes: toJsonText(scopes) }) };
    if (Object.keys(set).length === 0) return this.get(id);
    const row = await this.db.updateTable('api_keys').set(set).where('id', '=', id).returning(columns).executeTakeFirst();
    return row && toRecord(row);
  }

  async touch(id: number, at: string) {
    await this.db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
  }

  async delete(id: number) {
    const result = await this.db.deleteFrom('api_keys').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
