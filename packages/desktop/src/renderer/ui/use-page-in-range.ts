import { useEffect } from 'react';
import { pageCount } from './pager.js';

/**
 * Steps back to the last page when `page` lies past it: a deletion can empty the last page.
 * `count` is the list's count, undefined until the list has loaded (nothing to step back from).
 */
export function usePageInRange(page: number, count: number | undefined, perPage: number, setPage: (page: number) => void): void {
  useEffect(() => {
    if (count === undefined) return;
    const last = pageCount(count, perPage);
    if (page > last) setPage(last);
  }, [page, count, perPage, setPage]);
}
