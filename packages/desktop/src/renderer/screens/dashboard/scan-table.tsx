import { humanBytes, preciseTime } from '../../ui/format.js';
import type { Scan } from './scan-points.js';
import { ColumnHeads, type Column } from '../../ui/column-heads.js';

const columns: readonly Column[] = [
  { label: 'Scan' },
  { label: 'Scanned at' },
  { label: 'Size', number: true },
  { label: 'Files', number: true },
  { label: 'Took', number: true },
];

/** The chart's data as a table, oldest scan first as the chart reads: for a screen reader, or anyone who wants the numbers. */
export function ScanTable({ scans, subject }: { scans: readonly Scan[]; subject: string }) {
  return (
    <table className="scan-table">
      <caption>Scans of {subject}</caption>
      <ColumnHeads columns={columns} />
      <tbody>
        {scans.map((scan, index) => (
          <tr key={scan.id}>
            <th scope="row">{index + 1}</th>
            <td>{preciseTime(scan.at)}</td>
            <td className="number">{humanBytes(scan.file_size_sum)}</td>
            <td className="number">{scan.file_count.toLocaleString('en')}</td>
            <td className="number">{scan.duration_ms.toLocaleString('en')} ms</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
