import type { ListQuery } from './list-query.js';

/**
 * A history's default order (jobs, audit events): newest first by `column` when the request
 * names no `sort_by` (the id tie-breaker follows its direction, kysely-list.ts).
 */
export function newestFirst(query: ListQuery, column: string): ListQuery {
  return query.sort.length > 0 ? query : { ...query, sort: [{ field: column, direction: 'desc', nullable: false }] };
}
