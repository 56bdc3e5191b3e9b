import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { ListPage, ListQuery } from '../../list-query/list-query.js';
import type { Database } from './kysely-schema.js';
import { orderByClause, orderKeys, seekFrom, seekKeys, sortValue, whereFilters } from './kysely-list.js';
import { countThrough, type ListCache } from './kysely-list-cache.js';

/**
 * One filtered, sorted, paginated page plus the total count of matching rows. The page's
 * ids are found first (an index-only walk past a deep offset), then only those rows are read.
 * With a cache, the count is read once per data version, and a page past an offset whose row
 * is known (an earlier page's first or last row) seeks to that row and walks only the rest.
 */
export async function listRows<Row>(
  db: Kysely<Database>,
  table: keyof Database,
  columns: readonly string[],
  query: ListQuery,
  cache?: ListCache,
  /** A condition of the reader's (what they may see), ANDed with the query's filters. */
  visible?: RawBuilder<SqlBool>,
): Promise<ListPage<Row>> {
  const where = visible ? sql<SqlBool>`(${whereFilters(query.filters)}) and (${visible})` : whereFilters(query.filters);
  const order = orderByClause(query);
  const selected = sql.join(columns.map((column) => sql.ref(`${table}.${column}`)));
  const countQuery = sql<{ count: number | string }>`select count(*) as count from ${sql.table(table)} where ${where}`.compile(db);
  const countRows = async () => Number((await db.executeQuery(countQuery)).rows[0]?.count ?? 0);
  // The seek's bound first: of two bounds on one column SQLite's planner takes the first it
  // meets for the index range (the filter's own would walk every row before the anchor).
  const page = (from: RawBuilder<SqlBool>, offset: number) =>
    sql<Row>`select ${selected} from ${sql.table(table)}
      where ${sql.ref(`${table}.id`)} in (select id from ${sql.table(table)} where ${from} and ${where} order by ${order} limit ${query.limit} offset ${offset})
      order by ${order}`.execute(db);
  if (!cache) {
    const [rows, count] = await Promise.all([page(sql<SqlBool>`1 = 1`, query.offset), countRows()]);
    return { count, items: rows.rows };
  }

  const key = JSON.stringify([countQuery.sql, countQuery.parameters]);
  const keys = seekKeys(orderKeys(query));
  const anchorKey = keys && JSON.stringify([key, keys]);
  const version = await cache.version();
  const anchor = anchorKey === undefined ? undefined : cache.anchor(version, anchorKey, query.offset);
  const [rows, count] = await Promise.all([
    anchor ? page(seekFrom(keys!, anchor.values), query.offset - anchor.offset) : page(sql<SqlBool>`1 = 1`, query.offset),
    countThrough(cache, version, key, countRows),
  ]);
  const items = rows.rows;
  if (anchorKey !== undefined && items.length > 0) {
    // Under the version read before the page: a write committed meanwhile moves the version on.
    // A sort key the store does not select leaves no anchor (a seek needs every key's value).
    const remember = (offset: number, row: Row) => {
      const values = keys!.map((key) => sortValue(key, row as Record<string, unknown>));
      if (values.every((value) => value !== undefined)) cache.addAnchor(version, anchorKey, { offset, values });
    };
    remember(query.offset, items[0]!);
    if (items.length > 1) remember(query.offset + items.length - 1, items.at(-1)!);
  }
  return { count, items };
}
