import { sql, type Expression, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { ListPage, ListQuery } from '../../list-query/list-query.js';
import type { Database } from './kysely-schema.js';
import type { DialectQuirks } from './kysely-dialect-quirks.js';
import { orderByClause, orderKeys, reversedOrderByClause, scanningFilter, seekFrom, seekKeys, sortValue, whereFilters } from './kysely-list.js';
import { countThrough, type Anchor, type ListCache } from './kysely-list-cache.js';
import { listTimeBoundExceeded } from './list-time-bound.js';

/** What a store adds to the query for its list. */
export interface ListRowsOptions {
  /** Counts and page anchors remembered until the data changes (docs/decisions/018-list-cache-and-seek.md). */
  cache?: ListCache;
  /** A condition of the reader's (what they may see), ANDed with the query's filters. */
  visible?: RawBuilder<SqlBool>;
  /**
   * Matches counted at most past the page's end (docs/decisions/186-history-list-counts.md):
   * when more match, `count` is the page's end plus this, a lower bound, and the page says so.
   * Unset: every match is counted.
   */
  countWindow?: number;
}

/**
 * One filtered, sorted, paginated page plus the count of matching rows. The page's ids are
 * found first (an index-only walk past a deep offset), then only those rows are read. With a
 * cache, the count is read once per data version, and a page past an offset whose row is known
 * (an earlier page's first or last row) seeks to that row and walks only the rest. A page past
 * a deep offset walks back from the list's end when that is nearer (the exact count known
 * first); with a count window, its count starts at its first row. A list whose filters scan
 * runs within the dialect's time bound: past it, a 400 naming it.
 */
export async function listRows<Row>(
  db: Kysely<Database>,
  quirks: Pick<DialectQuirks, 'listTimeBound'>,
  table: keyof Database,
  columns: readonly string[],
  query: ListQuery,
  options: ListRowsOptions = {},
): Promise<ListPage<Row>> {
  const scanning = scanningFilter(query.filters);
  if (!scanning) return listRowsOver<Row>(db, () => undefined, table, columns, query, options);
  const bound = quirks.listTimeBound;
  try {
    return await bound.run(db, (over, rowCheck) => listRowsOver<Row>(over, rowCheck, table, columns, query, options));
  } catch (error) {
    if (bound.cancelled(error)) throw listTimeBoundExceeded(scanning.field, bound.ms, error);
    throw error;
  }
}

/**
 * From this offset on, a page waits for the count and walks from whichever end of the list is
 * nearer: the entries it walks are then bounded by half the matches, not by the offset. A
 * windowed list instead reads the page first and counts only past its first row. Below it the
 * walk costs less than the wait (tens of microseconds).
 */
export const deepOffset = 10_000;

/** A count as the list answers it: exact, or a lower bound when its window was full. */
interface Counted {
  count: number;
  exact: boolean;
}

async function listRowsOver<Row>(
  db: Kysely<Database>,
  rowCheck: () => RawBuilder<SqlBool> | undefined,
  table: keyof Database,
  columns: readonly string[],
  query: ListQuery,
  { cache, visible, countWindow }: ListRowsOptions,
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
  // A window: the count stops one match past the page's end plus the window.
  const enough = countWindow === undefined ? undefined : query.offset + query.limit + countWindow;
  const countSql = (condition: Expression<SqlBool> | undefined) => {
    const matching = condition ? sql`from ${sql.table(table)} where ${condition}` : sql`from ${sql.table(table)}`;
    return (
      enough === undefined
        ? sql<{ count: number | string }>`select count(*) as count ${matching}`
        : sql<{ count: number | string }>`select count(*) as count from (select 1 as one ${matching} limit ${enough + 1}) as windowed`
    ).compile(db);
  };
  const countQuery = countSql(conditioned ? where : undefined);
  const counted = (total: number): Counted => (enough !== undefined && total > enough ? { count: enough, exact: false } : { count: total, exact: true });
  const countRows = async () => Number((await db.executeQuery(countSql(conditioned ? checked() : undefined))).rows[0]?.count ?? 0);
  const always = sql<SqlBool>`1 = 1`;
  // The seek's bound first: of two bounds on one column SQLite's planner takes the first it
  // meets for the index range (the filter's own would walk every row before the anchor).
  const page = (from: RawBuilder<SqlBool>, offset: number, limit = query.limit, walk = order) =>
    sql<Row>`select ${selected} from ${sql.table(table)}
      where ${sql.ref(`${table}.id`)} in (select id from ${sql.table(table)} where ${from} and ${checked()} order by ${walk} limit ${limit} offset ${offset})
      order by ${order}`.execute(db);
  const keys = cache ? seekKeys(orderKeys(query)) : undefined;
  /** The page by the shortest walk: from the start, from a known anchor, or (the exact count known) back from the end. */
  const pageAt = async (total: Counted | undefined, anchor: Anchor | undefined): Promise<Row[]> => {
    const walks: Array<{ entries: number; read: () => Promise<{ rows: Row[] }> }> = [{ entries: query.offset, read: () => page(always, query.offset) }];
    if (anchor) walks.push({ entries: query.offset - anchor.offset, read: () => page(seekFrom(keys!, anchor.values), query.offset - anchor.offset) });
    if (total?.exact) {
      const left = total.count - query.offset;
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
  /**
   * A deep page of a windowed list, then its count from the page's first row on: the offset
   * counts the rows before it, so only the page and the window are walked again, not the offset
   * (a row written between the two statements moves the count by one, as it moves an offset page).
   */
  const deepWindowed = async (count: () => Promise<number>, anchor: Anchor | undefined): Promise<[Row[], Counted] | undefined> => {
    const seekable = seekKeys(orderKeys(query));
    if (enough === undefined || !seekable) return undefined;
    const rows = await pageAt(undefined, anchor);
    const values = rows.length > 0 ? seekable.map((key) => sortValue(key, rows[0] as Record<string, unknown>)) : [];
    // Past the end (or a key the store does not select): the count from the start, no more than the offset.
    if (values.length === 0 || values.some((value) => value === undefined)) return [rows, counted(await count())];
    const pastStart = sql<{ count: number | string }>`select count(*) as count from (select 1 as one from ${sql.table(table)}
      where ${seekFrom(seekable, values)} and ${checked()} limit ${enough - query.offset + 1}) as windowed`;
    const after = Number((await pastStart.execute(db)).rows[0]?.count ?? 0);
    return [rows, counted(query.offset + after)];
  };
  /** The page and the count: one after the other when the count decides the walk, else side by side. */
  const pageAndCount = async (count: () => Promise<number>, known: number | undefined, anchor?: Anchor): Promise<[Row[], Counted]> => {
    const deep = known === undefined && query.offset >= deepOffset ? await deepWindowed(count, anchor) : undefined;
    if (deep) return deep;
    if (known === undefined && query.offset < deepOffset) {
      const [rows, total] = await both(() => pageAt(undefined, anchor), count);
      return [rows, counted(total)];
    }
    const total = counted(known ?? (await count()));
    return [await pageAt(total, anchor), total];
  };
  const answer = (items: Row[], total: Counted): ListPage<Row> =>
    total.exact ? { count: total.count, items } : { count: total.count, items, countIsLowerBound: true };
  if (!cache) {
    const [items, total] = await pageAndCount(countRows, undefined);
    return answer(items, total);
  }

  const key = JSON.stringify([countQuery.sql, countQuery.parameters]);
  const anchorKey = keys && JSON.stringify([key, keys]);
  const version = await cache.version();
  const anchor = anchorKey === undefined ? undefined : cache.anchor(version, anchorKey, query.offset);
  const [items, total] = await pageAndCount(() => countThrough(cache, version, key, countRows), cache.count(version, key), anchor);
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
  return answer(items, total);
}
