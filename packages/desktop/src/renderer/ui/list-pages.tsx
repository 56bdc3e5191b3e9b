import { useState } from 'react';
import { Pager } from './pager.js';
import { usePageInRange } from './use-page-in-range.js';

/** Items per page of the admin lists: few users, keys or rules fit one page; more get pages. */
export const adminPageSize = 25;

/** The page of a list and the list query that asks for it, in the core's `sort_by` order. */
export function useListPage(sortBy: string) {
  const [page, setPage] = useState(1);
  return { page, setPage, query: { sort_by: sortBy, page, per_page: adminPageSize }, key: `${sortBy}:${page}` };
}

/** The pager, once a list has more than one page; back to the last page when a deletion empties this one. */
export function ListPages({ label, page, count, onPage }: { label: string; page: number; count: number; onPage: (page: number) => void }) {
  usePageInRange(page, count, adminPageSize, onPage);
  if (count <= adminPageSize) return null;
  return <Pager label={label} page={page} perPage={adminPageSize} count={count} onPage={onPage} />;
}
