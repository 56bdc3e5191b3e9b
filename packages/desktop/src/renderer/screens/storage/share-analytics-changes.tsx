import { useId, useState } from 'react';
import type { ShareScan } from '@dms/core';
import { api } from '../../trpc-client.js';
import { useLoad } from '../../ui/use-load.js';
import { ErrorAlert } from '../../ui/error-alert.js';
import { humanBytes, shortTime } from '../../ui/format.js';
import { HistogramChange } from './share-analytics-histograms.js';

const signed = (text: string, value: number) => (value > 0 ? `+${text}` : value < 0 ? `−${text}` : text);

/**
 * "What changed" between two scans of the share: both chosen among its scans (the one before the
 * latest and the latest at first), the directories that grew and shrank most, and the age and
 * size histograms of both, side by side.
 */
export function ScanChanges({ share, scans }: { share: number; scans: readonly Pick<ShareScan, 'id' | 'at'>[] }) {
  const [from, setFrom] = useState(scans[1]?.id);
  const [to, setTo] = useState(scans[0]?.id);
  const fromId = useId();
  const toId = useId();
  const comparison = useLoad(
    () => (from !== undefined && to !== undefined ? api.shareAnalytics.compare.query({ share, from, to }) : Promise.resolve(undefined)),
    `${share}:${from}:${to}`,
  );
  if (scans.length < 2) return <p className="hint">A second scan of the share shows here what changed between them.</p>;
  const option = (scan: Pick<ShareScan, 'id' | 'at'>) => (
    <option key={scan.id} value={scan.id}>
      {shortTime(scan.at)} (scan {scan.id})
    </option>
  );
  const result = comparison.data;
  return (
    <div className="analytics-changes">
      <div className="growth-toolbar">
        <label htmlFor={fromId}>From</label>
        <select id={fromId} value={from} onChange={(event) => setFrom(Number(event.target.value))}>
          {scans.map(option)}
        </select>
        <label htmlFor={toId}>to</label>
        <select id={toId} value={to} onChange={(event) => setTo(Number(event.target.value))}>
          {scans.map(option)}
        </select>
      </div>
      <ErrorAlert message={comparison.error} />
      {result && (
        <>
          {result.top_growers.length === 0 ? (
            <p className="hint">No directory 1 to 3 levels deep changed between these scans.</p>
          ) : (
            <table aria-label="Directories that changed most">
              <caption>Directories that grew and shrank most</caption>
              <thead>
                <tr>
                  <th scope="col">Directory</th>
                  <th scope="col">Size change</th>
                  <th scope="col">Files change</th>
                </tr>
              </thead>
              <tbody>
                {result.top_growers.map((grower) => (
                  <tr key={grower.path}>
                    <th scope="row">{grower.path}</th>
                    <td data-change={Math.sign(grower.bytes_delta)}>{signed(humanBytes(Math.abs(grower.bytes_delta)), grower.bytes_delta)}</td>
                    <td>{signed(Math.abs(grower.files_delta).toLocaleString('en'), grower.files_delta)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <HistogramChange rows={result.age_histogram} title="Files by age, before and after" />
          <HistogramChange rows={result.size_histogram} title="Files by size, before and after" />
        </>
      )}
    </div>
  );
}
