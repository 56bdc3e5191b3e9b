import { sql, type Kysely } from 'kysely';
import type { ListPage, ListQuery } from '../../list-query/list-query.js';
import type { Database } from './kysely-schema.js';
import { orderByClause, whereFilters } from './kysely-list.js';
import { countThrough, type CountCache } from './kysely-count-cache.js';

/**
 * One filtered, sorted, paginated page plus the total count of matching rows. The page's
 * ids are found first (an index-only walk past a deep offset), then only those rows are read.
 */
export async function listRows<Row>(
  db: Kysely<Database>,
  table: keyof Database,
  columns: readonly string[],
  query: ListQuery,
  counts?: CountCache,
): Promise<ListPage<Row>> {
  const where = whereFilters(query.filters);
  const order = orderByClause(query);
  const selected = sql.join(columns.map((column) => sql.ref(`${table}.${column}`)));
  const countQuery = sql<{ count: number | string }>`select count(*) as count from ${sql.table(table)} where ${where}`.compile(db);
  const countKey = JSON.stringify([countQuery.sql, countQuery.parameters]);
  const countRows = async () => Number((await db.executeQuery(countQuery)).rows[0]?.count ?? 0);
  const [rows, count] = await Promise.all([
    sql<Row>`select ${selected} from ${sql.table(table)}
      where ${sql.ref(`${table}.id`)} in (select id from ${sql.table(table)} where ${where} order by ${order} limit ${query.limit} offset ${query.offset})
      order by ${order}`.execute(db),
    counts ? countThrough(counts, countKey, countRows) : countRows(),
  ]);
  return { count, items: rows.rows };
}
