/** Page sizes a table offers; the core takes 1 to 100 per page. */
export const pageSizes = [10, 25, 50, 100] as const;

interface PagerProps {
  /** What the pages hold, for the control's name ("Shares"). */
  label: string;
  page: number;
  perPage: number;
  /** The list answer's `count`: matching items before pagination. */
  count: number;
  /** `count` is a lower bound: there are more pages than it fills. */
  atLeast?: boolean;
  onPage: (page: number) => void;
  /** Offers the page sizes when given. */
  onPerPage?: (perPage: number) => void;
}

/** The number of pages a count fills, at least one (an empty list is one empty page). */
export function pageCount(count: number, perPage: number): number {
  return Math.max(1, Math.ceil(count / perPage));
}

/** "Page 2 of 3" with Previous and Next, under a table fed by the list contract's page/per_page. */
export function Pager({ label, page, perPage, count, atLeast = false, onPage, onPerPage }: PagerProps) {
  const pages = pageCount(count, perPage);
  const more = atLeast ? '+' : '';
  const first = count === 0 ? 0 : (page - 1) * perPage + 1;
  const last = Math.min(count, page * perPage);
  return (
    <nav className="pager" aria-label={`${label} pages`}>
      <button type="button" className="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span aria-live="polite">
        Page {page} of {pages}
        {more}
        <span className="hint">
          {' '}
          ({first}–{last} of {count}
          {more})
        </span>
      </span>
      <button type="button" className="secondary" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </button>
      {onPerPage && (
        <label className="inline">
          Per page
          <select value={perPage} onChange={(event) => onPerPage(Number(event.target.value))}>
            {pageSizes.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </label>
      )}
    </nav>
  );
}
