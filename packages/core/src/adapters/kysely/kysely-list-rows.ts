import { sql, type Kysely } from 'kysely';
import type { ListPage, ListQuery } from '../../list-query/list-query.js';
import type { Database } from './kysely-schema.js';
import { orderByClause, whereFilters } from './kysely-list.js';

/** One filtered, sorted, paginated page plus the total count of matching rows. */
export async function listRows<Row>(
  db: Kysely<Database>,
  table: keyof Database,
  columns: readonly string[],
  query: ListQuery,
): Promise<ListPage<Row>> {
  const where = whereFilters(query.filters);
  const selected = sql.join(columns.map((column) => sql.ref(column)));
  const [rows, total] = await Promise.all([
    sql<Row>`select ${selected} from ${sql.table(table)} where ${where} order by ${orderByClause(query)} limit ${query.limit} offset ${query.offset}`.execute(db),
    sql<{ count: number | string }>`select count(*) as count from ${sql.table(table)} where ${where}`.execute(db),
  ]);
  return { count: Number(total.rows[0]?.count ?? 0), items: rows.rows };
}
