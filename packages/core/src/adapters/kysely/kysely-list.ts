import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Filter, ListQuery, SortKey } from '../../list-query/list-query.js';
import { likePrefixRange } from './like-prefix-range.js';
import { lowerAscii } from '../../list-query/ascii-case.js';

/**
 * The column folded as the case-insensitive operators and order compare it: `lower(column)`,
 * which folds ASCII letters only on both adapters (SQLite's built-in `lower()`, PostgreSQL's on
 * a `COLLATE "C"` column), and is the expression the `*_name_ci` indexes hold (migration 0012).
 */
function folded(column: string): RawBuilder<string> {
  return sql<string>`lower(${sql.ref(column)})`;
}

/**
 * `column like pattern`, or for a pure prefix (`proj%`) the range of values that start with it,
 * which a database walks on an index of `column` (byte-wise order: SQLite's BINARY, PostgreSQL's
 * `COLLATE "C"`) instead of testing every entry.
 */
function likeOrRange(column: RawBuilder<unknown>, pattern: string | number | null | undefined): RawBuilder<SqlBool> {
  const range = typeof pattern === 'string' ? likePrefixRange(pattern) : undefined;
  return range ? sql<SqlBool>`(${column} >= ${range.from} and ${column} < ${range.to})` : sql<SqlBool>`${column} like ${pattern}`;
}

/** A case-insensitive pattern: the pattern's ASCII letters folded as the column's are. */
function foldedPattern(value: string | number | null | undefined): string {
  return lowerAscii(String(value));
}

/** Column references come from the endpoint's ListSpec, never from the request. */
function compileFilter(filter: Filter): RawBuilder<SqlBool> {
  const column = sql.ref(filter.field);
  const [first] = filter.values;
  switch (filter.op) {
    case 'eq':
      return first === null ? sql<SqlBool>`${column} is null` : sql<SqlBool>`${column} = ${first}`;
    case 'ne':
      return first === null ? sql<SqlBool>`${column} is not null` : sql<SqlBool>`(${column} <> ${first} or ${column} is null)`;
    case 'gt':
      return sql<SqlBool>`${column} > ${first}`;
    case 'gte':
      return sql<SqlBool>`${column} >= ${first}`;
    case 'lt':
      return sql<SqlBool>`${column} < ${first}`;
    case 'lte':
      return sql<SqlBool>`${column} <= ${first}`;
    case 'in':
      return sql<SqlBool>`${column} in (${sql.join(filter.values)})`;
    case 'not_in':
      return sql<SqlBool>`(${column} not in (${sql.join(filter.values)}) or ${column} is null)`;
    case 'like':
      return likeOrRange(column, first);
    case 'not_like':
      return sql<SqlBool>`(${column} not like ${first} or ${column} is null)`;
    case 'ilike':
      return likeOrRange(folded(filter.field), foldedPattern(first));
    case 'not_ilike':
      return sql<SqlBool>`(${folded(filter.field)} not like ${foldedPattern(first)} or ${column} is null)`;
  }
}

export function whereFilters(filters: readonly Filter[]): Expression<SqlBool> {
  if (filters.length === 0) return sql<SqlBool>`1 = 1`;
  return sql<SqlBool>`${sql.join(filters.map(compileFilter), sql` and `)}`;
}

/** What a key orders by: its column, or the column folded for a case-insensitive key. */
function sortExpression(key: SortKey): RawBuilder<unknown> {
  return key.caseInsensitive ? folded(key.field) : sql`${sql.ref(key.field)}`;
}

/** A row's value for a sort key, as the order compares it (folded for a case-insensitive key): what a seek starts from. */
export function sortValue(key: SortKey, row: Readonly<Record<string, unknown>>): unknown {
  const value = row[key.field];
  return key.caseInsensitive && typeof value === 'string' ? lowerAscii(value) : value;
}

/**
 * A nullable column says where its nulls go (lowest, as SQLite puts them); a NOT NULL one says
 * nothing, since PostgreSQL uses an index only for the null order it was built with (its default
 * is the opposite), even on a column that has no nulls.
 */
function orderKey(key: SortKey): RawBuilder<unknown> {
  const column = sortExpression(key);
  if (!key.nullable) return key.direction === 'asc' ? sql`${column} asc` : sql`${column} desc`;
  return key.direction === 'asc' ? sql`${column} asc nulls first` : sql`${column} desc nulls last`;
}

/**
 * The keys of a list's order: nulls sort lowest on every adapter; `id` ends every order so
 * pages are stable. The id tie-breaker runs in the direction of the last key, so that an
 * index on that column (whose entries end with the row id) serves the whole order in either
 * direction.
 */
export function orderKeys(query: ListQuery): SortKey[] {
  const tieBreaker: SortKey = { field: 'id', direction: query.sort.at(-1)?.direction ?? 'asc', nullable: false };
  return query.sort.some((key) => key.field === 'id') ? query.sort : [...query.sort, tieBreaker];
}

export function orderByClause(query: ListQuery): RawBuilder<unknown> {
  return sql.join(orderKeys(query).map(orderKey));
}

/**
 * The rows at or after the row whose sort keys hold `values`, in the order of `keys` (which
 * end at id, so the order is total). For NOT NULL keys only (`seekKeys`). The first key's bound
 * leads, so that an index on it starts there; the rest decides among rows equal to it:
 * for `name desc, id asc`, `name <= $n and (name < $n or id >= $id)`.
 */
export function seekFrom(keys: readonly SortKey[], values: readonly unknown[]): RawBuilder<SqlBool> {
  const past = (key: SortKey, value: unknown, inclusive: boolean) => {
    const column = sortExpression(key);
    if (key.direction === 'asc') return inclusive ? sql<SqlBool>`${column} >= ${value}` : sql<SqlBool>`${column} > ${value}`;
    return inclusive ? sql<SqlBool>`${column} <= ${value}` : sql<SqlBool>`${column} < ${value}`;
  };
  const from = (i: number): RawBuilder<SqlBool> => {
    const key = keys[i]!;
    if (i === keys.length - 1) return past(key, values[i], true);
    return sql<SqlBool>`(${past(key, values[i], false)} or (${sortExpression(key)} = ${values[i]} and ${from(i + 1)}))`;
  };
  return keys.length === 1 ? from(0) : sql<SqlBool>`${past(keys[0]!, values[0], true)} and ${from(0)}`;
}

/**
 * The keys a page can seek by: the order's keys up to id (after id nothing breaks a tie), or
 * undefined when one of them holds nulls (a seek would need null-aware comparisons).
 */
export function seekKeys(keys: readonly SortKey[]): SortKey[] | undefined {
  const through = keys.slice(0, keys.findIndex((key) => key.field === 'id') + 1);
  return through.length > 0 && through.every((key) => !key.nullable) ? through : undefined;
}
