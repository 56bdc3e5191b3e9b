/** A column of a table's head; a `number` column is right-aligned with its figures. */
export interface Column {
  label: string;
  number?: boolean;
}

/** A table's head: one row of column headers, in order. */
export function ColumnHeads({ columns }: { columns: readonly Column[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column) => (
          <th key={column.label} scope="col" className={column.number === true ? 'number' : undefined}>
            {column.label}
          </th>
        ))}
      </tr>
    </thead>
  );
}
