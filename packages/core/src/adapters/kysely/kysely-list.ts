import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Filter, ListQuery, SortKey } from '../../list-query/list-query.js';
import { likePrefixRange } from './like-prefix-range.js';
import { lowerAscii } from '../../list-query/ascii-case.js';
import { likeEscape } from '../../list-query/like-pattern.js';

/**
 * The column folded as the case-insensitive operators and order compare it: `lower(column)`,
 * which folds ASCII letters only on both adapters (SQLite's built-in `lower()`, PostgreSQL's on
 * a `COLLATE "C"` column), and is the expression the `*_name_ci` indexes hold (migration 0012).
 */
function folded(column: string): RawBuilder<string> {
  return sql<string>`lower(${sql.ref(column)})`;
}

/**
 * `column like pattern`, with the backslash as the escape character on both adapters (SQLite has
 * none unless told, PostgreSQL's default is the backslash): list-query/like-pattern.ts.
 */
function like(column: RawBuilder<unknown>, pattern: unknown): RawBuilder<SqlBool> {
  return sql<SqlBool>`${column} like ${pattern} escape ${sql.lit(likeEscape)}`;
}

/**
 * `column like pattern`, or for a pure prefix (`proj%`) the range of values that start with it,
 * which a database walks on an index of `column` (byte-wise order: SQLite's BINARY, PostgreSQL's
 * `COLLATE "C"`) instead of testing every entry.
 */
function likeOrRange(column: RawBuilder<unknown>, pattern: string | number | null | undefined): RawBuilder<SqlBool> {
  const range = typeof pattern === 'string' ? likePrefixRange(pattern) : undefined;
  return range ? sql<SqlBool>`(${column} >= ${range.from} and ${column} < ${range.to})` : like(column, pattern);
}

/** A case-insensitive pattern: the pattern's ASCII letters folded as the column's are. */
function foldedPattern(value: string | number | null | undefined): string {
  return lowerAscii(String(value));
}

/**
 * A decimal held as text (`12.50`) as a number: `cast(x as numeric)`, standard SQL on both
 * adapters. PostgreSQL's numeric is exact; SQLite's gives an integer, or a REAL for a fraction
 * (exact for amounts of up to 15 significant digits, which is what a double holds). A column and
 * the values it is compared with go through the same cast, so `12.5` equals `12.50`.
 */
function asDecimal(expression: Expression<unknown> | RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`cast(${expression} as numeric)`;
}

/** A value as a filter or a seek compares it with its column: a parameter, cast as the column is for a decimal. */
function operand(decimal: boolean | undefined, value: unknown): unknown {
  return decimal && value !== null ? asDecimal(sql.val(value)) : value;
}

/** Column references come from the endpoint's ListSpec, never from the request. */
function compileFilter(filter: Filter): RawBuilder<SqlBool> {
  const ref = sql.ref(filter.field);
  // The comparisons' column and values: cast to numbers on a decimal field (which takes no pattern).
  const column = filter.decimal ? asDecimal(ref) : ref;
  const values = filter.values.map((value) => operand(filter.decimal, value));
  const [value] = values;
  const [first] = filter.values;
  switch (filter.op) {
    case 'eq':
      return value === null ? sql<SqlBool>`${ref} is null` : sql<SqlBool>`${column} = ${value}`;
    case 'ne':
      return value === null ? sql<SqlBool>`${ref} is not null` : sql<SqlBool>`(${column} <> ${value} or ${ref} is null)`;
    case 'gt':
      return sql<SqlBool>`${column} > ${value}`;
    case 'gte':
      return sql<SqlBool>`${column} >= ${value}`;
    case 'lt':
      return sql<SqlBool>`${column} < ${value}`;
    case 'lte':
      return sql<SqlBool>`${column} <= ${value}`;
    case 'in':
      return sql<SqlBool>`${column} in (${sql.join(values)})`;
    case 'not_in':
      return sql<SqlBool>`(${column} not in (${sql.join(values)}) or ${ref} is null)`;
    case 'like':
      return likeOrRange(ref, first);
    case 'not_like':
      return sql<SqlBool>`(not (${like(ref, first)}) or ${ref} is null)`;
    case 'ilike':
      return likeOrRange(folded(filter.field), foldedPattern(first));
    case 'not_ilike':
      return sql<SqlBool>`(not (${like(folded(filter.field), foldedPattern(first))}) or ${ref} is null)`;
  }
}

/**
 * The first filter that tests a pattern on every row it reads (not a prefix range): its list
 * runs within the dialect's time bound (list-time-bound.ts).
 */
export function scanningFilter(filters: readonly Filter[]): Filter | undefined {
  return filters.find((filter) => {
    if (filter.op === 'not_like' || filter.op === 'not_ilike') return true;
    if (filter.op !== 'like' && filter.op !== 'ilike') return false;
    const [pattern] = filter.values;
    return typeof pattern !== 'string' || likePrefixRange(pattern) === undefined;
  });
}

export function whereFilters(filters: readonly Filter[]): Expression<SqlBool> {
  if (filters.length === 0) return sql<SqlBool>`1 = 1`;
  return sql<SqlBool>`${sql.join(filters.map(compileFilter), sql` and `)}`;
}

/** What a key orders by: its column, folded for a case-insensitive key, as a number for a decimal one. */
function sortExpression(key: SortKey): RawBuilder<unknown> {
  if (key.caseInsensitive) return folded(key.field);
  return key.decimal ? asDecimal(sql.ref(key.field)) : sql`${sql.ref(key.field)}`;
}

/**
 * A row's value for a sort key, as the order compares it (folded for a case-insensitive key): what
 * a seek starts from. A decimal's text stays as it is: the seek casts it as the order casts the column.
 */
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
 * The list's order read from its other end: every key's direction turned, nulls with it (an
 * ascending key's `nulls first` becomes `desc nulls last`), so the rows come exactly reversed.
 */
export function reversedOrderByClause(query: ListQuery): RawBuilder<unknown> {
  return sql.join(orderKeys(query).map((key) => orderKey({ ...key, direction: key.direction === 'asc' ? 'desc' : 'asc' })));
}

/**
 * The rows at or after the row whose sort keys hold `values`, in the order of `keys` (which
 * end at id, so the order is total). For NOT NULL keys only (`seekKeys`). The first key's bound
 * leads, so that an index on it starts there; the rest decides among rows equal to it:
 * for `name desc, id asc`, `name <= $n and (name < $n or id >= $id)`.
 */
export function seekFrom(keys: readonly SortKey[], values: readonly unknown[]): RawBuilder<SqlBool> {
  const past = (key: SortKey, stored: unknown, inclusive: boolean) => {
    const column = sortExpression(key);
    const value = operand(key.decimal, stored);
    if (key.direction === 'asc') return inclusive ? sql<SqlBool>`${column} >= ${value}` : sql<SqlBool>`${column} > ${value}`;
    return inclusive ? sql<SqlBool>`${column} <= ${value}` : sql<SqlBool>`${column} < ${value}`;
  };
  const from = (i: number): RawBuilder<SqlBool> => {
    const key = keys[i]!;
    if (i === keys.length - 1) return past(key, values[i], true);
    return sql<SqlBool>`(${past(key, values[i], false)} or (${sortExpression(key)} = ${operand(key.decimal, values[i])} and ${from(i + 1)}))`;
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
