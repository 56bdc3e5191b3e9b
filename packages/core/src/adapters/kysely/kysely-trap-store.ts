import type { Kysely } from 'kysely';
import type { TrapInsert, TrapRecord, TrapStore } from '../../ports/storage.js';
import type { ListQuery } from '../../list-query/list-query.js';
import type { Database } from './kysely-schema.js';
import { listRows } from './kysely-list-rows.js';
import { definedOnly } from './kysely-store-helpers.js';

const columns = ['id', 'activation', 'version', 'manager', 'community', 'severity_low', 'severity_high'] as const;

export class KyselyTrapStore implements TrapStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => string,
  ) {}

  list(query: ListQuery) {
    return listRows<TrapRecord>(this.db, 'snmp_traps', columns, query);
  }

  async listActive() {
    return (await this.db.selectFrom('snmp_traps').select(columns).where('activation', '=', 1).orderBy('id').execute()) as TrapRecord[];
  }

  async get(id: number) {
    return (await this.db.selectFrom('snmp_traps').select(columns).where('id', '=', id).executeTakeFirst()) as TrapRecord | undefined;
  }

  async create(values: TrapInsert) {
    const at = this.now();
    return (await this.db
      .insertInto('snmp_traps')
      .values({ ...values, created_at: at, updated_at: at })
      .returning(columns)
      .executeTakeFirstOrThrow()) as TrapRecord;
  }

  async update(id: number, patch: Partial<TrapInsert>) {
    return (await this.db
      .updateTable('snmp_traps')
      .set({ ...definedOnly(patch), updated_at: this.now() })
      .where('id', '=', id)
      .returning(columns)
      .executeTakeFirst()) as TrapRecord | undefined;
  }

  async delete(id: number) {
    const result = await this.db.deleteFrom('snmp_traps').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
