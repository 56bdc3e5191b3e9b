import './list.css';
import { useCallback, useState } from 'react';
import { plural } from './format.js';

/**
 * A filtered, paged list's state: a new filter or page size starts again at page 1. `pageQuery`
 * is the page as the core's list contract takes it.
 */
export function useFilteredPages<F>(initial: F) {
  const [filter, setFilterState] = useState<F>(initial);
  const [page, setPage] = useState(1);
  const [perPage, setPerPageState] = useState(25);
  const setFilter = useCallback((next: F) => (setFilterState(next), setPage(1)), []);
  const setPerPage = useCallback((next: number) => (setPerPageState(next), setPage(1)), []);
  const pageQuery = { page: String(page), per_page: String(perPage) };
  return { filter, setFilter, page, setPage, perPage, setPerPage, pageQuery };
}

interface ListCountProps {
  count: number;
  /** `count` is a lower bound: a history list counted no further (docs/decisions/186-history-list-counts.md). */
  atLeast?: boolean;
  /** One item's name: "job", "open alert". */
  noun: string;
  filtered: boolean;
  onRefresh: () => void;
}

/** Above a list: how many items there are (and that they match the filter), and Refresh. */
export function ListCount({ count, atLeast = false, noun, filtered, onRefresh }: ListCountProps) {
  return (
    <div className="history-toolbar">
      <p className="storage-count">
        {atLeast ? `More than ${plural(count, noun)}` : plural(count, noun)}
        {filtered ? ` ${count === 1 && !atLeast ? 'matches' : 'match'} the filter` : ''}
      </p>
      <button type="button" className="secondary small" onClick={onRefresh}>
        Refresh
      </button>
    </div>
  );
}
