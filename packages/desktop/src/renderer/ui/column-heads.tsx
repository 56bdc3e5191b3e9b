import './list.css';
import { SortableHeader, type SortOrder } from './sortable-header.js';

/**
 * A column of a table's head; a `number` column is right-aligned with its figures, a `hidden`
 * label is for screen readers only (an actions column), a `sortBy` column sorts the table.
 */
export interface Column {
  label: string;
  number?: boolean;
  hidden?: boolean;
  /** The attribute the core sorts on when this header is clicked. */
  sortBy?: string;
}

interface ColumnHeadsProps {
  columns: readonly Column[];
  /** The table's order, for the `sortBy` columns. */
  order?: SortOrder;
  onSort?: (order: SortOrder) => void;
}

/** A table's head: one row of column headers, in order. */
export function ColumnHeads({ columns, order, onSort }: ColumnHeadsProps) {
  return (
    <thead>
      <tr>
        {columns.map((column) => {
          const className = column.number === true ? 'number' : undefined;
          if (column.sortBy !== undefined && order && onSort) {
            return <SortableHeader key={column.label} field={column.sortBy} label={column.label} order={order} onSort={onSort} className={className} />;
          }
          return (
            <th key={column.label} scope="col" className={className}>
              {column.hidden === true ? <span className="visually-hidden">{column.label}</span> : column.label}
            </th>
          );
        })}
      </tr>
    </thead>
  );
}
