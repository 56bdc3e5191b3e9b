import { Fragment } from 'react';
import type { JobKind } from '@dms/core';
import { isJobFinished } from '@dms/core';
import { api } from '../../trpc-client.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { SortableHeader, type SortOrder } from '../../ui/sortable-header.js';
import { humanBytes, shortTime } from '../../ui/format.js';
import { shareHealthHints, shareHealthLabels } from '../../labels/watch-labels.js';
import { JobProgress, type TrackedJob } from '../../ui/job-progress.js';
import type { ShareRow } from './share-form.js';
import { CapacityBar } from './capacity-bar.js';
import { useLoad } from '../../ui/use-load.js';
import { sourceThresholds } from '../../ui/capacity-level.js';

const columns = 11;

interface ShareTableProps {
  shares: ShareRow[];
  nasNames: ReadonlyMap<number, string>;
  poolNames: ReadonlyMap<number, string>;
  order: SortOrder;
  onSort: (order: SortOrder) => void;
  jobs: Record<number, TrackedJob>;
  onJob: (share: ShareRow, kind: JobKind) => void;
  onDismissJob: (share: ShareRow) => void;
  editingId: number | undefined;
  onEdit: (share: ShareRow) => void;
  onDeleted: (share: ShareRow) => void;
  /** Whether a share is ticked for the bulk bar. */
  isSelected: (share: ShareRow) => boolean;
  onSelect: (share: ShareRow, selected: boolean) => void;
  /** Ticks or unticks the whole page. */
  onSelectPage: (selected: boolean) => void;
}

/** "projects on filer": a share's name is unique on its NAS only. */
export function shareTitle(share: ShareRow, nasNames: ReadonlyMap<number, string>): string {
  return `${share.name} on ${nasNames.get(share.nas_id) ?? `NAS #${share.nas_id}`}`;
}

/** "failed its latest test, Nov 25, 2026, 4:31 PM": a health and when it was last tested. */
function healthTitle(share: ShareRow): string {
  const hint = shareHealthHints[share.health];
  return share.last_tested_at ? `${hint}, ${shortTime(share.last_tested_at)}` : hint;
}

/** A share never scanned has no counts yet: not "0 files". */
function NotScannedCells() {
  return (
    <>
      <td className="number">
        <span aria-hidden="true">–</span>
        <span className="visually-hidden">not scanned</span>
      </td>
      <td className="number">
        <span aria-hidden="true">–</span>
        <span className="visually-hidden">not scanned</span>
      </td>
    </>
  );
}

/**
 * One page of shares, sorted by the clicked column; each row tests, scans, edits or deletes its
 * share, and a running or finished job shows in a row of its own under it.
 */
export function ShareTable({
  shares,
  nasNames,
  poolNames,
  order,
  onSort,
  jobs,
  onJob,
  onDismissJob,
  editingId,
  onEdit,
  onDeleted,
  isSelected,
  onSelect,
  onSelectPage,
}: ShareTableProps) {
  const ticked = shares.filter(isSelected).length;
  // The bars turn at the thresholds the alert uses; a user who may not read the settings sees the defaults'.
  const settings = useLoad(() => api.alertSettings.list.query());
  const thresholds = sourceThresholds(settings.data);
  return (
    <table aria-label="Shares">
      <thead>
        <tr>
          <th scope="col" className="select-cell">
            <input
              type="checkbox"
              aria-label="Select every share on this page"
              checked={ticked > 0 && ticked === shares.length}
              ref={(box) => {
                if (box) box.indeterminate = ticked > 0 && ticked < shares.length;
              }}
              onChange={(event) => onSelectPage(event.target.checked)}
            />
          </th>
          <SortableHeader field="name" label="Name" order={order} onSort={onSort} />
          <th scope="col">NAS</th>
          <SortableHeader field="path" label="Path" order={order} onSort={onSort} />
          <th scope="col">Pool</th>
          <SortableHeader field="file_count" label="Files" order={order} onSort={onSort} className="number" />
          <SortableHeader field="file_size_sum" label="Size" order={order} onSort={onSort} className="number" />
          <SortableHeader field="health" label="Health" order={order} onSort={onSort} />
          <SortableHeader field="last_scanned_at" label="Last scanned" order={order} onSort={onSort} />
          <th scope="col">Capacity</th>
          <th scope="col">Actions</th>
        </tr>
      </thead>
      <tbody>
        {shares.map((share) => {
          const title = shareTitle(share, nasNames);
          const tracked = jobs[share.id];
          const running = tracked !== undefined && !tracked.error && !(tracked.job && isJobFinished(tracked.job));
          return (
            <Fragment key={share.id}>
              <tr data-editing={editingId === share.id ? 'true' : undefined}>
                <td className="select-cell">
                  <input
                    type="checkbox"
                    aria-label={`Select ${title}`}
                    checked={isSelected(share)}
                    onChange={(event) => onSelect(share, event.target.checked)}
                  />
                </td>
                <td>{share.name}</td>
                <td>{nasNames.get(share.nas_id) ?? `#${share.nas_id}`}</td>
                <td>{share.path}</td>
                <td>{share.pool_id === null ? '' : (poolNames.get(share.pool_id) ?? `#${share.pool_id}`)}</td>
                {share.last_scanned_at === null ? (
                  <NotScannedCells />
                ) : (
                  <>
                    <td className="number">{share.file_count.toLocaleString('en')}</td>
                    <td className="number">{humanBytes(share.file_size_sum)}</td>
                  </>
                )}
                <td>
                  <span className="health" data-health={share.health} title={healthTitle(share)}>
                    {shareHealthLabels[share.health]}
                  </span>
                </td>
                <td className="nowrap">{share.last_scanned_at === null ? <span className="hint">not scanned</span> : shortTime(share.last_scanned_at)}</td>
                <td>
                  <CapacityBar share={share} source={thresholds} />
                </td>
                <td>
                  <span className="row-actions">
                    <button type="button" aria-label={`Test ${title}`} disabled={running} onClick={() => onJob(share, 'share_test')}>
                      Test
                    </button>
                    <button type="button" aria-label={`Scan ${title}`} disabled={running} onClick={() => onJob(share, 'share_scan')}>
                      Scan
                    </button>
                    <button type="button" className="secondary" aria-label={`Edit ${title}`} onClick={() => onEdit(share)}>
                      Edit
                    </button>
                    <ConfirmButton
                      label="Delete"
                      accessibleLabel={`Delete ${title}`}
                      question={`Delete share ${title}? Its finished jobs stay in the overview.`}
                      onConfirm={async () => {
                        await api.shares.delete.mutate({ share: share.id });
                        onDeleted(share);
                      }}
                    />
                  </span>
                </td>
              </tr>
              {tracked && (
                <tr className="job-row">
                  <td colSpan={columns}>
                    <JobProgress tracked={tracked} subject={title} onDismiss={() => onDismissJob(share)} />
                  </td>
                </tr>
              )}
            </Fragment>
          );
        })}
      </tbody>
    </table>
  );
}
