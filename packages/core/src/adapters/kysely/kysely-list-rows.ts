import { sql, type Expression, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { ListPage, ListQuery } from '../../list-query/list-query.js';
import type { Database } from './kysely-schema.js';
import type { DialectQuirks } from './kysely-dialect-quirks.js';
import { orderByClause, orderKeys, reversedOrderByClause, scanningFilter, seekFrom, seekKeys, sortValue, whereFilters } from './kysely-list.js';
import { countThrough, type Anchor, type ListCache } from './kysely-list-cache.js';
import { listTimeBoundExceeded } from './list-time-bound.js';

/**
 * One filtered, sorted, paginated page plus the total count of matching rows. The page's
 * ids are found first (an index-only walk past a deep offset), then only those rows are read.
 * With a cache, the count is read once per data version, and a page past an offset whose row
 * is known (an earlier page's first or last row) seeks to that row and walks only the rest.
 * A page past a deep offset walks back from the list's end when that is nearer (the count
 * known first). A list whose filters scan runs within the dialect's time bound: past it, a 400 naming it.
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

/**
 * From this offset on, a page waits for the count and walks from whichever end of the list is
 * nearer: the entries it walks are bounded by half the matches, not by the offset. Below it
 * the walk costs less than the count it would wait for (tens of microseconds).
 */
export const deepOffset = 10_000;

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
  // Without any condition the count has no WHERE at all: SQLite then counts its smallest index
  // page by page (10 M audit events: 27 ms, against 120 ms stepping through a `where 1 = 1`).
  const conditioned = query.filters.length > 0 || visible !== undefined;
  const countSql = (condition: Expression<SqlBool> | undefined) =>
    (condition
      ? sql<{ count: number | string }>`select count(*) as count from ${sql.table(table)} where ${condition}`
      : sql<{ count: number | string }>`select count(*) as count from ${sql.table(table)}`
    ).compile(db);
  const countQuery = countSql(conditioned ? where : undefined);
  const countRows = async () => Number((await db.executeQuery(countSql(conditioned ? checked() : undefined))).rows[0]?.count ?? 0);
  const always = sql<SqlBool>`1 = 1`;
  // The seek's bound first: of two bounds on one column SQLite's planner takes the first it
  // meets for the index range (the filter's own would walk every row before the anchor).
  const page = (from: RawBuilder<SqlBool>, offset: number, limit = query.limit, walk = order) =>
    sql<Row>`select ${selected} from ${sql.table(table)}
      where ${sql.ref(`${table}.id`)} in (select id from ${sql.table(table)} where ${from} and ${checked()} order by ${walk} limit ${limit} offset ${offset})
      order by ${order}`.execute(db);
  const keys = cache ? seekKeys(orderKeys(query)) : undefined;
  /** The page by the shortest walk: from the start, from a known anchor, or (the count known) back from the end. */
  const pageAt = async (count: number | undefined, anchor: Anchor | undefined): Promise<Row[]> => {
    const walks: Array<{ entries: number; read: () => Promise<{ rows: Row[] }> }> = [{ entries: query.offset, read: () => page(always, query.offset) }];
    if (anchor) walks.push({ entries: query.offset - anchor.offset, read: () => page(seekFrom(keys!, anchor.values), query.offset - anchor.offset) });
    if (count !== undefined) {
      const left = count - query.offset;
      if (left <= 0) return [];
      const limit = Math.min(query.limit, left);
      walks.push({ entries: left - limit, read: () => page(always, left - limit, limit, reversedOrderByClause(query)) });
    }
    const shortest = walks.reduce((best, walk) => (walk.entries < best.entries ? walk : best));
    return (await shortest.read()).rows;
  };
  // A transaction's one connection takes one statement at a time (pg refuses a second meanwhile).
  const both = async <A, B>(first: () => Promise<A>, second: () => Promise<B>): Promise<[A, B]> =>
    db.isTransaction ? [await first(), await second()] : Promise.all([first(), second()]);
  /** The page and the count: one after the other when the count decides the walk, else side by side. */
  const pageAndCount = async (counted: () => Promise<number>, known: number | undefined, anchor?: Anchor): Promise<[Row[], number]> => {
    if (known === undefined && query.offset < deepOffset) return both(() => pageAt(undefined, anchor), counted);
    const count = known ?? (await counted());
    return [await pageAt(count, anchor), count];
  };
  if (!cache) {
    const [items, count] = await pageAndCount(countRows, undefined);
    return { count, items };
  }

  const key = JSON.stringify([countQuery.sql, countQuery.parameters]);
  const anchorKey = keys && JSON.stringify([key, keys]);
  const version = await cache.version();
  const anchor = anchorKey === undefined ? undefined : cache.anchor(version, anchorKey, query.offset);
  const [items, count] = await pageAndCount(() => countThrough(cache, version, key, countRows), cache.count(version, key), anchor);
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
