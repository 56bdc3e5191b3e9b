import { lazy, Suspense, useId, useState } from 'react';
import { listDefaults } from '@dms/core';
import { api } from '../../trpc-client.js';
import { useLoad } from '../../ui/use-load.js';
import { ErrorAlert } from '../../ui/error-alert.js';
import { byName } from '../../ui/name-order.js';
import { spaceSummary } from './space-points.js';
import { SpaceTable } from './space-table.js';
import { ShareToolbar } from './share-toolbar.js';

// Chart.js comes with the chart, as for the growth chart.
const ShareSpaceChart = lazy(() => import('./share-space-chart.js').then((module) => ({ default: module.ShareSpaceChart })));

/** The period the chart shows, in days: the forecast's. */
const periodDays = 30;

/**
 * One share's used space and size over its capacity readings (tests' and scans'), with the
 * forecast line to its full date, as a chart or as a table; the share chosen among those whose
 * capacity was read, the fullest first.
 */
export function ShareSpace() {
  const shares = useLoad(() => api.shares.list.query({ query: { per_page: listDefaults.maxPageSize, sort_by: 'name' } }));
  const nas = useLoad(() => api.nas.list.query({ per_page: listDefaults.maxPageSize, sort_by: 'name' }));
  const nasNames = new Map(nas.data?.nas.map((item) => [item.id, item.name]));
  const rows = byName(
    (shares.data?.nas_shares ?? [])
      .filter((share) => share.capacity_bytes !== null)
      .map((share) => ({ ...share, title: `${share.name} on ${nasNames.get(share.nas_id) ?? `NAS #${share.nas_id}`}` })),
    (share) => share.title,
  );
  const [chosen, setChosen] = useState<number>();
  const [asTable, setAsTable] = useState(false);
  const summaryId = useId();
  const fullest = rows.reduce<(typeof rows)[number] | undefined>(
    (top, share) => (!top || (share.used_percent ?? 0) > (top.used_percent ?? 0) ? share : top),
    undefined,
  );
  const share = rows.find((row) => row.id === chosen) ?? fullest;
  const history = useLoad(
    () => (share ? api.shares.capacityHistory.query({ share: share.id, days: periodDays }) : Promise.resolve(undefined)),
    String(share?.id),
  );
  const readings = share && history.data && !history.loading ? history.data : undefined;
  if (!share) return null;
  return (
    <section aria-labelledby="space-heading">
      <h2 id="space-heading">Share space</h2>
      <ErrorAlert message={shares.error ?? history.error} />
      <ShareToolbar
        name="space-share"
        rows={rows}
        chosen={share.id}
        onChoose={setChosen}
        asTable={asTable}
        onToggle={() => setAsTable((value) => !value)}
        what="space"
      />
      {readings && (
        <figure className="growth-figure">
          {asTable ? (
            <SpaceTable readings={readings} subject={share.title} fullAt={share.capacity_forecast?.full_at ?? null} />
          ) : (
            <Suspense fallback={<p className="chart-box chart-loading">Loading the chart…</p>}>
              <ShareSpaceChart key={share.id} readings={readings} forecast={share.capacity_forecast} subject={share.title} summaryId={summaryId} />
            </Suspense>
          )}
          <figcaption id={summaryId} className="growth-summary">
            {spaceSummary(share.title, readings, share.capacity_forecast, share.days_until_full)}
          </figcaption>
        </figure>
      )}
    </section>
  );
}
