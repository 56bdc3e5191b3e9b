import { sortParam, type SortOrder } from '../../ui/sortable-header.js';

/**
 * `sort_by` for a storage table: the text columns people read (names, hosts, paths, comments)
 * in case-insensitive order, `name:asc:ci` (alpha, Beta, gamma rather than every capital first),
 * sorted and paged by the core; every other column as it is (numbers, dates, a health or type).
 */
export function storageSortParam(order: SortOrder, textFields: ReadonlySet<string>): string {
  return textFields.has(order.field) ? `${sortParam(order)}:ci` : sortParam(order);
}

/** Names for a picker or a map of one page of the largest size, in the order the tables show them. */
export const namesInOrder = { per_page: 100, sort_by: 'name:ci' } as const;
