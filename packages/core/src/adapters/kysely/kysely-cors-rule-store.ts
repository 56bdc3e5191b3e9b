import type { Kysely } from 'kysely';
import type { CorsRuleInsert, CorsRuleRecord, CorsRuleStore } from '../../ports/storage.js';
import type { ListQuery } from '../../list-query/list-query.js';
import type { Database } from './kysely-schema.js';
import { corsRuleColumns as columns, type CorsRuleRow } from '../../tables/cors-rules.table.js';
import { parseJsonText, toJsonText } from '../../tables/json-text.js';
import type { DialectQuirks } from './kysely-dialect-quirks.js';
import { listRows } from './kysely-list-rows.js';

function toRecord(row: CorsRuleRow): CorsRuleRecord {
  return { ...row, origins: parseJsonText(row.origins), methods: parseJsonText(row.methods) };
}

function toRow(values: Partial<CorsRuleInsert>) {
  return {
    ...(values.origins === undefined ? {} : { origins: toJsonText(values.origins) }),
    ...(values.methods === undefined ? {} : { methods: toJsonText(values.methods) }),
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
    const page = await listRows<CorsRuleRow>(this.db, this.quirks, 'cors_rules', columns, query);
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
      .values({ origins: toJsonText(values.origins), methods: toJsonText(values.methods), path: values.path, created_at: at, updated_at: at })
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
