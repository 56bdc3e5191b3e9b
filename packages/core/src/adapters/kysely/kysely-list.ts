import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Filter, ListQuery } from '../../list-query/list-query.js';

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
      return sql<SqlBool>`${column} like ${first}`;
    case 'not_like':
      return sql<SqlBool>`(${column} not like ${first} or ${column} is null)`;
  }
}

export function whereFilters(filters: readonly Filter[]): Expression<SqlBool> {
  if (filters.length === 0) return sql<SqlBool>`1 = 1`;
  return sql<SqlBool>`${sql.join(filters.map(compileFilter), sql` and `)}`;
}

/**
 * Nulls sort lowest on every adapter; `id` ends every order so pages are stable. The id
 * tie-breaker runs in the direction of the last key, so that an index on that column
 * (whose entries end with the row id) serves the whole order in either direction.
 */
export function orderByClause(query: ListQuery): RawBuilder<unknown> {
  const tieBreaker = { field: 'id', direction: query.sort.at(-1)?.direction ?? ('asc' as const) };
  const keys = query.sort.some((key) => key.field === 'id') ? query.sort : [...query.sort, tieBreaker];
  return sql.join(
    keys.map((key) =>
      key.direction === 'asc' ? sql`${sql.ref(key.field)} asc nulls first` : sql`${sql.ref(key.field)} desc nulls last`,
    ),
  );
}
