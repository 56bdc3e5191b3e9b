import { inTransaction } from './kysely-transaction.js';
import { sql, type Kysely } from 'kysely';
import type { PoolInsert, PoolRecord, PoolStore } from '../../ports/storage.js';
import type { ListQuery } from '../../list-query/list-query.js';
import { DomainError } from '../../errors/domain-error.js';
import type { Database } from './kysely-schema.js';
import { poolColumns as columns } from '../../tables/pools.table.js';
import type { DialectQuirks } from './kysely-dialect-quirks.js';
import { listRows } from './kysely-list-rows.js';
import { definedOnly, uniqueWrite } from './kysely-store-helpers.js';

export class KyselyPoolStore implements PoolStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly quirks: DialectQuirks,
    private readonly now: () => string,
  ) {}

  list(query: ListQuery) {
    return listRows<PoolRecord>(this.db, this.quirks, 'pools', columns, query);
  }

  async get(id: number) {
    return (await this.db.selectFrom('pools').select(columns).where('id', '=', id).executeTakeFirst()) as PoolRecord | undefined;
  }

  async findByName(name: string) {
    return (await this.db.selectFrom('pools').select(columns).where('name', '=', name).executeTakeFirst()) as PoolRecord | undefined;
  }

  async create(values: PoolInsert) {
    const at = this.now();
    const row = await uniqueWrite(this.quirks, 'name', values.name, () =>
      this.db
        .insertInto('pools')
        .values({ ...values, primary_id: null, created_at: at, updated_at: at })
        .returning(columns)
        .executeTakeFirstOrThrow(),
    );
    return row as PoolRecord;
  }

  async update(id: number, patch: Partial<PoolInsert>) {
    const row = await uniqueWrite(this.quirks, 'name', patch.name, () =>
      this.db
        .updateTable('pools')
        .set({ ...definedOnly(patch), updated_at: this.now() })
        .where('id', '=', id)
        .returning(columns)
        .executeTakeFirst(),
    );
    return row as PoolRecord | undefined;
  }

  async delete(id: number) {
    // Shares leave the pool (pool_id becomes null through the foreign key's ON DELETE SET NULL).
    const result = await this.db.deleteFrom('pools').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async memberIds(poolIds: readonly number[]) {
    const members = new Map<number, number[]>(poolIds.map((id) => [id, []]));
    if (poolIds.length === 0) return members;
    const rows = await this.db
      .selectFrom('nas_shares')
      .select(['id', 'pool_id'])
      .where('pool_id', 'in', [...poolIds])
      .orderBy('id')
      .execute();
    for (const row of rows) if (row.pool_id !== null) members.get(row.pool_id)?.push(row.id);
    return members;
  }

  async setMembers(id: number, shareIds: readonly number[]) {
    const wanted = [...new Set(shareIds)];
    await inTransaction(this.db, async (trx) => {
      if (wanted.length > 0) {
        // Locked until the commit: a concurrent setMembers of another pool waits, then sees these
        // shares taken instead of taking them too (SQLite's single writer serializes it anyway).
        const found = await trx
          .selectFrom('nas_shares')
          .select(['id', 'pool_id'])
          .where('id', 'in', wanted)
          .orderBy('id')
          .modifyEnd(sql.raw(this.quirks.rowLockClause))
          .execute();
        const missing = wanted.filter((shareId) => !found.some((row) => row.id === shareId));
        if (missing.length > 0) {
          throw new DomainError('validation', `nas_share_ids ${missing.join(', ')} not found`, {
            details: { nas_share_ids: missing.map((value) => ({ error: 'not_found' as const, value })) },
          });
        }
        const elsewhere = found.filter((row) => row.pool_id !== null && row.pool_id !== id);
        if (elsewhere.length > 0) {
          throw new DomainError('conflict', `nas_share_ids ${elsewhere.map((row) => row.id).join(', ')} already belong to another pool`, {
            details: { nas_share_ids: elsewhere.map((row) => ({ error: 'taken' as const, value: row.id })) },
          });
        }
      }
      const at = this.now();
      let leaving = trx.updateTable('nas_shares').set({ pool_id: null, updated_at: at }).where('pool_id', '=', id);
      if (wanted.length > 0) leaving = leaving.where('id', 'not in', wanted);
      await leaving.execute();
      if (wanted.length > 0) {
        await trx.updateTable('nas_shares').set({ pool_id: id, updated_at: at }).where('id', 'in', wanted).execute();
      }
    });
  }
}
