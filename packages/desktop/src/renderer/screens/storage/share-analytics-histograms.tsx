import { useState } from 'react';
import { humanBytes, plural } from '../../ui/format.js';
import { BarList, TableToggle } from './share-analytics-bars.js';

interface Row {
  bucket: string;
  files: number;
  bytes: number;
}

/** A histogram (files and bytes per bucket) as bars of bytes in bucket order, or as a table. */
export function Histogram({ rows, title, what }: { rows: readonly Row[]; title: string; what: string }) {
  const [asTable, setAsTable] = useState(false);
  return (
    <div className="analytics-histogram">
      <h3>{title}</h3>
      <TableToggle asTable={asTable} onToggle={() => setAsTable((value) => !value)} what={what} />
      {asTable ? (
        <table aria-label={title}>
          <thead>
            <tr>
              <th scope="col">Bucket</th>
              <th scope="col">Files</th>
              <th scope="col">Size</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.bucket}>
                <th scope="row">{row.bucket}</th>
                <td>{row.files.toLocaleString('en')}</td>
                <td>{humanBytes(row.bytes)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <BarList
          label={title}
          empty="No files."
          bars={rows.map((row) => ({ key: row.bucket, label: row.bucket, detail: `${humanBytes(row.bytes)}, ${plural(row.files, 'file')}`, value: row.bytes }))}
        />
      )}
    </div>
  );
}

interface SideBySideRow {
  bucket: string;
  from_files: number;
  from_bytes: number;
  to_files: number;
  to_bytes: number;
}

/** Two scans' histogram, bucket by bucket: a table (the comparison is read as numbers). */
export function HistogramChange({ rows, title }: { rows: readonly SideBySideRow[]; title: string }) {
  return (
    <table aria-label={title}>
      <caption>{title}</caption>
      <thead>
        <tr>
          <th scope="col">Bucket</th>
          <th scope="col">Files before</th>
          <th scope="col">Files after</th>
          <th scope="col">Size before</th>
          <th scope="col">Size after</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.bucket}>
            <th scope="row">{row.bucket}</th>
            <td>{row.from_files.toLocaleString('en')}</td>
            <td>{row.to_files.toLocaleString('en')}</td>
            <td>{humanBytes(row.from_bytes)}</td>
            <td>{humanBytes(row.to_bytes)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
