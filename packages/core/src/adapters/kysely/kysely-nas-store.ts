import type { Kysely } from 'kysely';
import type { NasInsert, NasRecord, NasStore } from '../../ports/storage.js';
import type { ListQuery } from '../../list-query/list-query.js';
import type { Database } from './kysely-schema.js';
import { nasColumns as columns } from '../../tables/nas.table.js';
import type { DialectQuirks } from './kysely-dialect-quirks.js';
import { listRows } from './kysely-list-rows.js';
import { definedOnly, uniqueWrite } from './kysely-store-helpers.js';
import { DomainError } from '../../errors/domain-error.js';

export class KyselyNasStore implements NasStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly quirks: DialectQuirks,
    private readonly now: () => string,
  ) {}

  list(query: ListQuery) {
    return listRows<NasRecord>(this.db, this.quirks, 'nas', columns, query);
  }

  async get(id: number) {
    return (await this.db.selectFrom('nas').select(columns).where('id', '=', id).executeTakeFirst()) as NasRecord | undefined;
  }

  async findByName(name: string) {
    return (await this.db.selectFrom('nas').select(columns).where('name', '=', name).executeTakeFirst()) as NasRecord | undefined;
  }

  async create(values: NasInsert) {
    const at = this.now();
    const row = await uniqueWrite(this.quirks, 'name', values.name, () =>
      this.db
        .insertInto('nas')
        .values({ ...values, created_at: at, updated_at: at })
        .returning(columns)
        .executeTakeFirstOrThrow(),
    );
    return row as NasRecord;
  }

  async update(id: number, patch: Partial<NasInsert>) {
    const row = await uniqueWrite(this.quirks, 'name', patch.name, () =>
      this.db
        .updateTable('nas')
        .set({ ...definedOnly(patch), updated_at: this.now() })
        .where('id', '=', id)
        .returning(columns)
        .executeTakeFirst(),
    );
    return row as NasRecord | undefined;
  }

  async delete(id: number) {
    try {
      const result = await this.db.deleteFrom('nas').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    } catch (error) {
      // A share created since the caller counted them keeps the NAS (ON DELETE RESTRICT).
      if (this.quirks.isForeignKeyViolation(error)) {
        throw new DomainError('conflict', 'the NAS still has shares', { details: { nas_shares: [{ error: 'frozen' }] } });
      }
      throw error;
    }
  }

  async shareCount(id: number) {
    const row = await this.db
      .selectFrom('nas_shares')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('nas_id', '=', id)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }
}
