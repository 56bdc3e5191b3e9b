import { sql, type Expression, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { ListPage, ListQuery } from '../../list-query/list-query.js';
import type { Database } from './kysely-schema.js';
import type { DialectQuirks } from './kysely-dialect-quirks.js';
import { orderByClause, orderKeys, scanningFilter, seekFrom, seekKeys, sortValue, whereFilters } from './kysely-list.js';
import { countThrough, type ListCache } from './kysely-list-cache.js';
import { listTimeBoundExceeded } from './list-time-bound.js';

/**
 * One filtered, sorted, paginated page plus the total count of matching rows. The page's
 * ids are found first (an index-only walk past a deep offset), then only those rows are read.
 * With a cache, the count is read once per data version, and a page past an offset whose row
 * is known (an earlier page's first or last row) seeks to that row and walks only the rest.
 * A list whose filters scan runs within the dialect's time bound: past it, a 400 naming it.
 */
export async function listRows<Row>(
  db: Kysely<Database>,
  quirks: Pick<DialectQuirks, 'listTimeBound'>,
  table: keyof Database,
  columns: readonly string[],
  query: ListQuery,
  cache?: ListCache,
  /** A condition of the reader's (what they may see), ANDed with the query's filters. */
  visible?: RawBuilder<SqlBool>,
): Promise<ListPage<Row>> {
  const scanning = scanningFilter(query.filters);
  if (!scanning) return listRowsOver<Row>(db, () => undefined, table, columns, query, cache, visible);
  const bound = quirks.listTimeBound;
  try {
    return await bound.run(db, (over, rowCheck) => listRowsOver<Row>(over, rowCheck, table, columns, query, cache, visible));
  } catch (error) {
    if (bound.cancelled(error)) throw listTimeBoundExceeded(scanning.field, bound.ms, error);
    throw error;
  }
}

async function listRowsOver<Row>(
  db: Kysely<Database>,
  rowCheck: () => RawBuilder<SqlBool> | undefined,
  table: keyof Database,
  columns: readonly string[],
  query: ListQuery,
  cache?: ListCache,
  /** A condition of the reader's (what they may see), ANDed with the query's filters. */
  visible?: RawBuilder<SqlBool>,
): Promise<ListPage<Row>> {
  const where = visible ? sql<SqlBool>`(${whereFilters(query.filters)}) and (${visible})` : whereFilters(query.filters);
  // The row check leads, so that it runs on every row the statement reads, whatever the filters say.
  const checked = (): Expression<SqlBool> => {
    const check = rowCheck();
    return check ? sql<SqlBool>`${check} and ${where}` : where;
  };
  const order = orderByClause(query);
  const selected = sql.join(columns.map((column) => sql.ref(`${table}.${column}`)));
  const countSql = (condition: Expression<SqlBool>) =>
    sql<{ count: number | string }>`select count(*) as count from ${sql.table(table)} where ${condition}`.compile(db);
  const countQuery = countSql(where);
  const countRows = async () => Number((await db.executeQuery(countSql(checked()))).rows[0]?.count ?? 0);
  // The seek's bound first: of two bounds on one column SQLite's planner takes the first it
  // meets for the index range (the filter's own would walk every row before the anchor).
  const page = (from: RawBuilder<SqlBool>, offset: number) =>
    sql<Row>`select ${selected} from ${sql.table(table)}
      where ${sql.ref(`${table}.id`)} in (select id from ${sql.table(table)} where ${from} and ${checked()} order by ${order} limit ${query.limit} offset ${offset})
      order by ${order}`.execute(db);
  // A transaction's one connection takes one statement at a time (pg refuses a second meanwhile).
  const both = async <A, B>(first: () => Promise<A>, second: () => Promise<B>): Promise<[A, B]> =>
    db.isTransaction ? [await first(), await second()] : Promise.all([first(), second()]);
  if (!cache) {
    const [rows, count] = await both(() => page(sql<SqlBool>`1 = 1`, query.offset), countRows);
    return { count, items: rows.rows };
  }

  const key = JSON.stringify([countQuery.sql, countQuery.parameters]);
  const keys = seekKeys(orderKeys(query));
  const anchorKey = keys && JSON.stringify([key, keys]);
  const version = await cache.version();
  const anchor = anchorKey === undefined ? undefined : cache.anchor(version, anchorKey, query.offset);
  const [rows, count] = await both(
    () => (anchor ? page(seekFrom(keys!, anchor.values), query.offset - anchor.offset) : page(sql<SqlBool>`1 = 1`, query.offset)),
    () => countThrough(cache, version, key, countRows),
  );
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
