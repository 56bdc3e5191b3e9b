import type { Outputs } from '../../trpc-client.js';
import { api } from '../../trpc-client.js';
import { useLoad } from '../../ui/use-load.js';
import { ErrorAlert } from '../../ui/error-alert.js';
import { humanBytes } from '../../ui/format.js';
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

function CapacityTable({ caption, rows, total }: { caption: string; rows: Array<{ key: number; name: string; sizes: Sizes }>; total?: Sizes }) {
  return (
    <table className="capacity-table">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col" className="number">
            Files
          </th>
          <th scope="col" className="number">
            Size
          </th>
          <th scope="col" className="number">
            Size growth
          </th>
          <th scope="col" className="number">
            Files growth
          </th>
          <th scope="col">Shares</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            <th scope="row">{row.name}</th>
            <SizeCells sizes={row.sizes} />
          </tr>
        ))}
      </tbody>
      {total && (
        <tfoot>
          <tr>
            <th scope="row">All shares</th>
            <SizeCells sizes={total} />
          </tr>
        </tfoot>
      )}
    </table>
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

/** Size, free, used % and days until full of each group's file systems, each counted once (GET /statistics/capacity). */
function SpaceTable({
  caption,
  rows,
  total,
  thresholds,
}: {
  caption: string;
  rows: Array<{ key: number; name: string; sizes: Sizes }>;
  total?: Sizes;
  thresholds: CapacityThresholds;
}) {
  return (
    <table className="capacity-table space-table">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col" className="number">
            Size
          </th>
          <th scope="col" className="number">
            Free
          </th>
          <th scope="col" className="number">
            Used
          </th>
          <th scope="col" className="number">
            Full in
          </th>
          <th scope="col">Shares</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            <th scope="row">{row.name}</th>
            <SpaceCells sizes={row.sizes} thresholds={thresholds} />
          </tr>
        ))}
      </tbody>
      {total && (
        <tfoot>
          <tr>
            <th scope="row">All shares</th>
            <SpaceCells sizes={total} thresholds={thresholds} />
          </tr>
        </tfoot>
      )}
    </table>
  );
}

/**
 * What dms has counted on each NAS and pool: the files and bytes of every share's latest scan,
 * and how they grew over the last 30 days. A share never scanned is counted apart, not as empty.
 */
export function CapacitySection() {
  const capacity = useLoad(() => api.statistics.capacity.query({ days: periodDays }));
  const data = capacity.data;
  const thresholds = sourceThresholds(useLoad(() => api.alertSettings.list.query()).data);
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
        <SpaceTable
          caption="Space on each NAS"
          rows={data.nas.map(({ nas_id, name, ...sizes }) => ({ key: nas_id, name, sizes }))}
          total={data.totals}
          thresholds={thresholds}
        />
      )}
      {data && data.pools.length > 0 && (
        <SpaceTable
          caption="Space in each pool"
          rows={data.pools.map(({ pool_id, name, ...sizes }) => ({ key: pool_id, name, sizes }))}
          thresholds={thresholds}
        />
      )}
      <p className="hint">Files: from each share’s latest scan; growth over the last {periodDays} days.</p>
      {data && data.nas.length > 0 && (
        <CapacityTable caption="Per NAS" rows={data.nas.map(({ nas_id, name, ...sizes }) => ({ key: nas_id, name, sizes }))} total={data.totals} />
      )}
      {data && data.pools.length > 0 && (
        <CapacityTable caption="Per pool" rows={data.pools.map(({ pool_id, name, ...sizes }) => ({ key: pool_id, name, sizes }))} />
      )}
    </section>
  );
}
