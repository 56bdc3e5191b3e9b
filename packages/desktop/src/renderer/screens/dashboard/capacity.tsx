import type { ReactNode } from 'react';
import type { Outputs } from '../../trpc-client.js';
import { api } from '../../trpc-client.js';
import { useLoad } from '../../ui/use-load.js';
import { ErrorAlert } from '../../ui/error-alert.js';
import { humanBytes } from '../../ui/format.js';
import { ColumnHeads, type Column } from '../../ui/column-heads.js';
import { capacityLevel, fullInText, sourceThresholds, type CapacityThresholds } from '../../ui/capacity-level.js';

type Capacity = Outputs['statistics']['capacity'];
type Sizes = Capacity['totals'];

/** The period growth is measured over, in days. */
const periodDays = 30;

/** "+1,024 files", "−3 files", "no change": a signed change, its sign in words for a screen reader too. */
function signed(value: number, text: (magnitude: number) => string): string {
  if (value === 0) return 'no change';
  return `${value > 0 ? '+' : '−'}${text(Math.abs(value))}`;
}

function filesText(count: number): string {
  return `${count.toLocaleString('en')} ${count === 1 ? 'file' : 'files'}`;
}

/** "2 of 3 shares scanned": the totals count the scanned ones only. */
function scannedText(sizes: Sizes): string {
  const all = sizes.shares_scanned + sizes.shares_not_scanned;
  if (all === 0) return 'no shares';
  return `${sizes.shares_scanned} of ${all} ${all === 1 ? 'share' : 'shares'} scanned`;
}

function SizeCells({ sizes }: { sizes: Sizes }) {
  const scanned = sizes.shares_scanned > 0;
  return (
    <>
      <td className="number">{scanned ? filesText(sizes.file_count) : 'not scanned'}</td>
      <td className="number">{scanned ? humanBytes(sizes.file_size_sum) : ''}</td>
      <td className="number" data-growth={Math.sign(sizes.growth.file_size_sum)}>
        {scanned ? signed(sizes.growth.file_size_sum, humanBytes) : ''}
      </td>
      <td className="number" data-growth={Math.sign(sizes.growth.file_count)}>
        {scanned ? signed(sizes.growth.file_count, filesText) : ''}
      </td>
      <td>{scannedText(sizes)}</td>
    </>
  );
}

/** "3 shares, 1 merged": how many shares a group's space comes from, and how many shared a file system. */
function spaceSharesText(sizes: Sizes): string {
  const read = sizes.shares_with_capacity;
  if (read === 0) return 'no share read yet';
  const merged = sizes.shares_merged > 0 ? `, ${sizes.shares_merged} on a file system counted already` : '';
  return `${read} ${read === 1 ? 'share' : 'shares'} read${merged}`;
}

function SpaceCells({ sizes, thresholds }: { sizes: Sizes; thresholds: CapacityThresholds }) {
  if (sizes.shares_with_capacity === 0 || sizes.used_percent === null) {
    return (
      <>
        <td className="number" colSpan={4}>
          <span className="hint">not read yet: a test or scan reads it</span>
        </td>
        <td>{spaceSharesText(sizes)}</td>
      </>
    );
  }
  return (
    <>
      <td className="number">{humanBytes(sizes.capacity_bytes)}</td>
      <td className="number">{humanBytes(sizes.free_bytes)}</td>
      <td className="number" data-level={capacityLevel(sizes.used_percent, thresholds)}>
        {sizes.used_percent.toLocaleString('en')} %
      </td>
      <td className="number">{fullInText(sizes.days_until_full) ?? 'not growing'}</td>
      <td>{spaceSharesText(sizes)}</td>
    </>
  );
}

interface GroupRow {
  key: number;
  name: string;
  sizes: Sizes;
}

/** One row per NAS or pool, after its name `cells` of its sizes; the total of all shares last when given. */
function GroupTable({
  className,
  caption,
  columns,
  rows,
  total,
  cells,
}: {
  className: string;
  caption: string;
  columns: readonly Column[];
  rows: readonly GroupRow[];
  total?: Sizes;
  cells: (sizes: Sizes) => ReactNode;
}) {
  return (
    <table className={className}>
      <caption>{caption}</caption>
      <ColumnHeads columns={[{ label: 'Name' }, ...columns]} />
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            <th scope="row">{row.name}</th>
            {cells(row.sizes)}
          </tr>
        ))}
      </tbody>
      {total && (
        <tfoot>
          <tr>
            <th scope="row">All shares</th>
            {cells(total)}
          </tr>
        </tfoot>
      )}
    </table>
  );
}

/** The files and bytes of each group's latest scans and their growth. */
const filesColumns: readonly Column[] = [
  { label: 'Files', number: true },
  { label: 'Size', number: true },
  { label: 'Size growth', number: true },
  { label: 'Files growth', number: true },
  { label: 'Shares' },
];

/** Size, free, used % and days until full of each group's file systems, each counted once (GET /statistics/capacity). */
const spaceColumns: readonly Column[] = [
  { label: 'Size', number: true },
  { label: 'Free', number: true },
  { label: 'Used', number: true },
  { label: 'Full in', number: true },
  { label: 'Shares' },
];

/**
 * What dms has counted on each NAS and pool: the files and bytes of every share's latest scan,
 * and how they grew over the last 30 days. A share never scanned is counted apart, not as empty.
 */
export function CapacitySection() {
  const capacity = useLoad(() => api.statistics.capacity.query({ days: periodDays }));
  const data = capacity.data;
  const thresholds = sourceThresholds(useLoad(() => api.alertSettings.list.query()).data);
  const nasRows = data?.nas.map(({ nas_id, name, ...sizes }) => ({ key: nas_id, name, sizes })) ?? [];
  const poolRows = data?.pools.map(({ pool_id, name, ...sizes }) => ({ key: pool_id, name, sizes })) ?? [];
  return (
    <section aria-labelledby="capacity-heading">
      <h2 id="capacity-heading">Capacity</h2>
      <p className="hint">
        Space: the file systems the shares lie on, as their latest test or scan read them, each counted once; full in: the forecast of the last {periodDays}{' '}
        days.
      </p>
      <ErrorAlert message={capacity.error} />
      {data && data.nas.length === 0 && <p>No NAS yet: capacity shows once a NAS has shares and they are scanned.</p>}
      {data && data.nas.length > 0 && (
        <GroupTable
          className="capacity-table space-table"
          caption="Space on each NAS"
          columns={spaceColumns}
          rows={nasRows}
          total={data.totals}
          cells={(sizes) => <SpaceCells sizes={sizes} thresholds={thresholds} />}
        />
      )}
      {data && data.pools.length > 0 && (
        <GroupTable
          className="capacity-table space-table"
          caption="Space in each pool"
          columns={spaceColumns}
          rows={poolRows}
          cells={(sizes) => <SpaceCells sizes={sizes} thresholds={thresholds} />}
        />
      )}
      <p className="hint">Files: from each share’s latest scan; growth over the last {periodDays} days.</p>
      {data && data.nas.length > 0 && (
        <GroupTable
          className="capacity-table"
          caption="Per NAS"
          columns={filesColumns}
          rows={nasRows}
          total={data.totals}
          cells={(sizes) => <SizeCells sizes={sizes} />}
        />
      )}
      {data && data.pools.length > 0 && (
        <GroupTable className="capacity-table" caption="Per pool" columns={filesColumns} rows={poolRows} cells={(sizes) => <SizeCells sizes={sizes} />} />
      )}
    </section>
  );
}
