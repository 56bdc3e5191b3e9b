import { lazy, Suspense, useId, useState } from 'react';
import { listDefaults } from '@dms/core';
import { api } from '../../trpc-client.js';
import { useLoad } from '../../ui/use-load.js';
import { ErrorAlert } from '../../ui/error-alert.js';
import { EmptyState } from '../../ui/empty-state.js';
import { growthSummary } from './scan-points.js';
import { ScanTable } from './scan-table.js';
import { ShareToolbar } from './share-toolbar.js';
import { byName } from '../../ui/name-order.js';

// Chart.js is loaded with the chart, not with the console: the first screen does not wait for it.
const ShareGrowthChart = lazy(() => import('./share-growth-chart.js').then((module) => ({ default: module.ShareGrowthChart })));

/** The scanned shares, by name, with their NAS's name (one page of the largest size each). */
function useScannedShares() {
  const shares = useLoad(() => api.shares.list.query({ query: { per_page: listDefaults.maxPageSize, sort_by: 'name', last_scanned_at: '!=null' } }));
  const nas = useLoad(() => api.nas.list.query({ per_page: listDefaults.maxPageSize, sort_by: 'name' }));
  const nasNames = new Map(nas.data?.nas.map((item) => [item.id, item.name]));
  const rows = byName(
    (shares.data?.nas_shares ?? []).map((share) => ({
      ...share,
      title: `${share.name} on ${nasNames.get(share.nas_id) ?? `NAS #${share.nas_id}`}`,
    })),
    (share) => share.title,
  );
  return { rows, loaded: shares.data !== undefined && nas.data !== undefined, error: shares.error ?? nas.error };
}

/**
 * One share's size and file count over its scans (the latest 100), as a chart or as a table:
 * the share chosen from those scanned, the most recently scanned first.
 */
export function ShareGrowth() {
  const shares = useScannedShares();
  const [chosen, setChosen] = useState<number>();
  const [asTable, setAsTable] = useState(false);
  const summaryId = useId();
  const newest = shares.rows.reduce<(typeof shares.rows)[number] | undefined>(
    (latest, share) => (!latest || (share.last_scanned_at ?? '') > (latest.last_scanned_at ?? '') ? share : latest),
    undefined,
  );
  const share = shares.rows.find((row) => row.id === chosen) ?? newest;
  const scans = useLoad(
    () => (share ? api.shares.scans.query({ share: share.id, query: { limit: String(listDefaults.maxPageSize) } }) : Promise.resolve(undefined)),
    String(share?.id),
  );
  // Oldest first, as the chart reads left to right.
  // While another share's scans load, the last share's are not shown under the new one's name.
  const points = share && scans.data && !scans.loading ? scans.data.scans.toReversed() : undefined;
  return (
    <section aria-labelledby="growth-heading">
      <h2 id="growth-heading">Share growth</h2>
      <ErrorAlert message={shares.error ?? scans.error} />
      {shares.loaded && !share && (
        <EmptyState title="No share scanned yet">
          Scan a share on the <a href="#/shares">Shares screen</a> (or let a schedule scan it): its size and file count over its scans show here.
        </EmptyState>
      )}
      {share && (
        <>
          <ShareToolbar
            name="growth-share"
            rows={shares.rows}
            chosen={share.id}
            onChoose={setChosen}
            asTable={asTable}
            onToggle={() => setAsTable((value) => !value)}
          />
          {points && (
            <figure className="growth-figure">
              {asTable ? (
                <ScanTable scans={points} subject={share.title} />
              ) : (
                <Suspense fallback={<p className="chart-box chart-loading">Loading the chart…</p>}>
                  <ShareGrowthChart key={share.id} scans={points} subject={share.title} summaryId={summaryId} />
                </Suspense>
              )}
              <figcaption id={summaryId} className="growth-summary">
                {growthSummary(share.title, points)}
                {!asTable && points.length > 1 && <span className="hint"> Focus the chart and use the arrow keys to step through the scans.</span>}
              </figcaption>
            </figure>
          )}
        </>
      )}
    </section>
  );
}
