import { useState } from 'react';
import { listDefaults } from '@dms/core';
import { api } from '../../trpc-client.js';
import { useLoad } from '../../ui/use-load.js';
import { ErrorAlert } from '../../ui/error-alert.js';
import { EmptyState } from '../../ui/empty-state.js';
import { byName } from '../../ui/name-order.js';
import { humanBytes, plural, shortTime } from '../../ui/format.js';
import { hashParams } from '../../shell/hash-route.js';
import { ShareToolbarChoice } from './share-analytics-choice.js';
import { DirectoryBars } from './share-analytics-directories.js';
import { Histogram } from './share-analytics-histograms.js';
import { ScanChanges } from './share-analytics-changes.js';
import './share-analytics.css';

/**
 * Where a share's space goes (docs/decisions/158-console-scan-analytics.md): its latest scan's
 * top directories as bars to drill into, its files by age and by size, its extensions and
 * largest files, and what changed between any two of its scans. Every chart has its table.
 * Opened from the menu or as `#/space?share=ID`.
 */
export function ShareAnalyticsScreen() {
  const shares = useLoad(() => api.shares.list.query({ query: { per_page: listDefaults.maxPageSize, sort_by: 'name' } }));
  const nas = useLoad(() => api.nas.list.query({ per_page: listDefaults.maxPageSize, sort_by: 'name' }));
  const nasNames = new Map(nas.data?.nas.map((item) => [item.id, item.name]));
  const rows = byName(
    (shares.data?.nas_shares ?? []).map((share) => ({ ...share, title: `${share.name} on ${nasNames.get(share.nas_id) ?? `NAS #${share.nas_id}`}` })),
    (share) => share.title,
  );
  const [chosen, setChosen] = useState(() => Number(hashParams().get('share')) || undefined);
  const share = rows.find((row) => row.id === chosen) ?? rows.find((row) => row.last_scanned_at !== null) ?? rows[0];
  const key = String(share?.id);
  const scan = useLoad(() => (share ? api.shareAnalytics.scan.query({ share: share.id }) : Promise.resolve(undefined)), key);
  const history = useLoad(
    () => (share ? api.shares.scans.query({ share: share.id, query: { limit: '50', sort_by: 'at:desc' } }) : Promise.resolve(undefined)),
    key,
  );
  if (shares.data && rows.length === 0) return <EmptyState title="No shares yet">Add a share on the Shares screen and scan it.</EmptyState>;
  const latest = scan.data && !scan.loading ? scan.data : undefined;
  const analytics = latest?.analytics;
  return (
    <>
      <ErrorAlert message={shares.error ?? scan.error ?? history.error} />
      {share && <ShareToolbarChoice rows={rows} chosen={share.id} onChoose={setChosen} />}
      {share && !scan.loading && !latest && <EmptyState title="Not scanned yet">Scan the share on the Shares screen: its directories show here.</EmptyState>}
      {latest && !analytics && <p className="hint">The latest scan was made before scans kept directory totals: scan the share again.</p>}
      {latest && analytics && (
        <>
          <p className="hint">
            Scan of {shortTime(latest.at)}: {plural(latest.file_count, 'file')}, {humanBytes(latest.file_size_sum)}.
          </p>
          <section aria-labelledby="directories-heading">
            <h2 id="directories-heading">Largest directories</h2>
            <DirectoryBars key={key} directories={analytics.top_directories} total={{ bytes: latest.file_size_sum, files: latest.file_count }} />
          </section>
          <section aria-labelledby="ages-heading" className="analytics-pair">
            <h2 id="ages-heading">Files by age and size</h2>
            <Histogram rows={analytics.age_histogram} title="By last modification" what="ages" />
            {analytics.access_histogram && <Histogram rows={analytics.access_histogram} title="By last access" what="access ages" />}
            <Histogram rows={analytics.size_histogram} title="By size" what="sizes" />
          </section>
          <section aria-labelledby="extensions-heading">
            <h2 id="extensions-heading">Extensions</h2>
            <table aria-labelledby="extensions-heading">
              <thead>
                <tr>
                  <th scope="col">Extension</th>
                  <th scope="col">Files</th>
                  <th scope="col">Size</th>
                </tr>
              </thead>
              <tbody>
                {analytics.extensions.map((row) => (
                  <tr key={row.extension}>
                    <th scope="row">{row.extension === '' ? '(none)' : `.${row.extension}`}</th>
                    <td>{row.files.toLocaleString('en')}</td>
                    <td>{humanBytes(row.bytes)}</td>
                  </tr>
                ))}
                {analytics.extensions_other.files > 0 && (
                  <tr>
                    <th scope="row">other</th>
                    <td>{analytics.extensions_other.files.toLocaleString('en')}</td>
                    <td>{humanBytes(analytics.extensions_other.bytes)}</td>
                  </tr>
                )}
              </tbody>
            </table>
          </section>
          <section aria-labelledby="largest-heading">
            <h2 id="largest-heading">Largest files</h2>
            <table aria-labelledby="largest-heading">
              <thead>
                <tr>
                  <th scope="col">File</th>
                  <th scope="col">Size</th>
                  <th scope="col">Modified</th>
                </tr>
              </thead>
              <tbody>
                {analytics.largest_files.map((file) => (
                  <tr key={file.path}>
                    <th scope="row">{file.path}</th>
                    <td>{humanBytes(file.bytes)}</td>
                    <td>{shortTime(file.modified_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        </>
      )}
      {share && history.data && (
        <section aria-labelledby="changes-heading">
          <h2 id="changes-heading">What changed</h2>
          <ScanChanges key={key} share={share.id} scans={history.data.scans} />
        </section>
      )}
    </>
  );
}
