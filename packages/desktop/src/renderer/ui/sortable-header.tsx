/** A list's order as the core's `sort_by` takes it: one attribute and a direction. */
export interface SortOrder {
  field: string;
  direction: 'asc' | 'desc';
}

/** `name:desc`, the list contract's form. */
export function sortParam(order: SortOrder): string {
  return `${order.field}:${order.direction}`;
}

interface SortableHeaderProps {
  /** The attribute the core sorts on (`file_size_sum`). */
  field: string;
  label: string;
  order: SortOrder;
  onSort: (order: SortOrder) => void;
  /** `number` right-aligns the column. */
  className?: string;
}

/**
 * A column header that sorts the table: a click sorts by it ascending, a second click
 * descending. The th carries aria-sort, so a screen reader announces the order with the column.
 */
export function SortableHeader({ field, label, order, onSort, className }: SortableHeaderProps) {
  const active = order.field === field;
  const ascending = active && order.direction === 'asc';
  return (
    <th scope="col" className={className} aria-sort={active ? (ascending ? 'ascending' : 'descending') : undefined}>
      <button type="button" className="sort" onClick={() => onSort({ field, direction: ascending ? 'desc' : 'asc' })}>
        {label}
        <span className="sort-mark" aria-hidden="true">
          {active ? (ascending ? ' ▲' : ' ▼') : ' ↕'}
        </span>
      </button>
    </th>
  );
}
