import type { Kysely, Selectable } from 'kysely';
import type { CorsRuleInsert, CorsRuleRecord, CorsRuleStore } from '../../ports/storage.js';
import type { ListQuery } from '../../list-query/list-query.js';
import type { CorsRuleTable, Database } from './kysely-schema.js';
import type { DialectQuirks } from './kysely-dialect-quirks.js';
import { listRows } from './kysely-list-rows.js';

const columns = ['id', 'origins', 'path', 'methods'] as const;

function toRecord(row: Pick<Selectable<CorsRuleTable>, (typeof columns)[number]>): CorsRuleRecord {
  return { ...row, origins: JSON.parse(row.origins) as string[], methods: JSON.parse(row.methods) as string[] };
}

function toRow(values: Partial<CorsRuleInsert>) {
  return {
    ...(values.origins === undefined ? {} : { origins: JSON.stringify(values.origins) }),
    ...(values.methods === undefined ? {} : { methods: JSON.stringify(values.methods) }),
    ...(values.path === undefined ? {} : { path: values.path }),
  };
}

export class KyselyCorsRuleStore implements CorsRuleStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => string,
    private readonly quirks: Pick<DialectQuirks, 'listTimeBound'>,
  ) {}

  async list(query: ListQuery) {
    const page = await listRows<Pick<Selectable<CorsRuleTable>, (typeof columns)[number]>>(this.db, this.quirks, 'cors_rules', columns, query);
    return { count: page.count, items: page.items.map(toRecord) };
  }

  async all() {
    return (await this.db.selectFrom('cors_rules').select(columns).orderBy('id').execute()).map(toRecord);
  }

  async get(id: number) {
    const row = await this.db.selectFrom('cors_rules').select(columns).where('id', '=', id).executeTakeFirst();
    return row && toRecord(row);
  }

  async create(values: CorsRuleInsert) {
    const at = this.now();
    const row = await this.db
      .insertInto('cors_rules')
      .values({ origins: JSON.stringify(values.origins), methods: JSON.stringify(values.methods), path: values.path, created_at: at, updated_at: at })
      .returning(columns)
      .executeTakeFirstOrThrow();
    return toRecord(row);
  }

  async update(id: number, patch: Partial<CorsRuleInsert>) {
    const row = await this.db
      .updateTable('cors_rules')
      .set({ ...toRow(patch), updated_at: this.now() })
      .where('id', '=', id)
      .returning(columns)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  async delete(id: number) {
    const result = await this.db.deleteFrom('cors_rules').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
