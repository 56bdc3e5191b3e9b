import { humanBytes, preciseTime } from '../../ui/format.js';
import type { SpaceReading } from './space-points.js';
import { ColumnHeads, type Column } from '../../ui/column-heads.js';

const columns: readonly Column[] = [{ label: 'Read at' }, { label: 'Used', number: true }, { label: 'Size', number: true }, { label: 'Free', number: true }];

/** The space chart's numbers as a table, oldest first as the chart reads, with the forecast's full date last. */
export function SpaceTable({ readings, subject, fullAt }: { readings: readonly SpaceReading[]; subject: string; fullAt: string | null }) {
  return (
    <table className="scan-table">
      <caption>Capacity readings of {subject}</caption>
      <ColumnHeads columns={columns} />
      <tbody>
        {readings.map((reading, index) => (
          <tr key={`${reading.at}-${index}`}>
            <th scope="row">{preciseTime(reading.at)}</th>
            <td className="number">{humanBytes(reading.capacity_bytes - reading.free_bytes)}</td>
            <td className="number">{humanBytes(reading.capacity_bytes)}</td>
            <td className="number">{humanBytes(reading.free_bytes)}</td>
          </tr>
        ))}
        {fullAt && readings.length > 0 && (
          <tr>
            <th scope="row">{preciseTime(fullAt)} (forecast)</th>
            <td className="number">{humanBytes(readings.at(-1)!.capacity_bytes)}</td>
            <td className="number">{humanBytes(readings.at(-1)!.capacity_bytes)}</td>
            <td className="number">{humanBytes(0)}</td>
          </tr>
        )}
      </tbody>
    </table>
  );
}
