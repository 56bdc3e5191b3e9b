import { useCallback, useRef, useState } from 'react';
import { api } from '../../trpc-client.js';
import { useLoad } from '../../ui/use-load.js';
import { EmptyState } from '../../ui/empty-state.js';
import type { SortOrder } from '../../ui/sortable-header.js';
import { Pager } from '../../ui/pager.js';
import { usePageInRange } from '../../ui/use-page-in-range.js';
import { plural } from '../../ui/format.js';
import { ShareForm, type ShareRow } from './share-form.js';
import { ShareTable, shareTitle } from './share-table.js';
import { filterParams, healthParam, isShareFiltered, noFilter, SharesFilter, type ShareFilter } from './shares-filter.js';
import { hashParams } from '../../shell/hash-route.js';
import { useShareJobs } from '../../ui/job-progress.js';
import { useBulkJobs } from './use-bulk-jobs.js';
import { ShareBulkBar } from './share-bulk-bar.js';
import { isSelected, useShareSelection } from './share-selection.js';
import '../../ui/admin.css';
import './storage.css';
import { ErrorAlert } from '../../ui/error-alert.js';
import { namesInOrder, storageSortParam } from './storage-sort.js';

// Names for the NAS filter, the form and the table's NAS and Pool columns: one page of the largest size.
const namesQuery = namesInOrder;
/** The share table's text columns: sorted ignoring case (the core's `:ci`). */
const textColumns = new Set(['name', 'path']);

/**
 * The shares: filtered by name, NAS and health, sorted by column, paged through the core's list contract
 * (`count` gives the pages); each is tested or scanned with live progress, edited or deleted.
 */
export function SharesScreen() {
  // The overview's health counts link here with `?health=…`.
  // `#/shares?health=…` (the dashboard) and `#/shares?nas_id=…` (a NAS that still has shares) open it filtered.
  const [filter, setFilterState] = useState<ShareFilter>(() => ({
    ...noFilter,
    health: healthParam(hashParams().get('health')),
    nasId: /^\d+$/.test(hashParams().get('nas_id') ?? '') ? hashParams().get('nas_id')! : '',
  }));
  const [order, setOrderState] = useState<SortOrder>({ field: 'name', direction: 'asc' });
  const [page, setPage] = useState(1);
  const [perPage, setPerPageState] = useState(10);
  const [editing, setEditing] = useState<ShareRow | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const formArea = useRef<HTMLDivElement>(null);

  const selecting = useShareSelection();
  const { clear: clearSelection } = selecting;

  // A new filter, order or page size starts again at page 1; a new filter also drops the selection,
  // which named shares of the old one.
  const setFilter = useCallback((next: ShareFilter) => (setFilterState(next), setPage(1), clearSelection()), [clearSelection]);
  const setOrder = useCallback((next: SortOrder) => (setOrderState(next), setPage(1)), []);
  const setPerPage = useCallback((next: number) => (setPerPageState(next), setPage(1)), []);

  const nas = useLoad(() => api.nas.list.query(namesQuery));
  const pools = useLoad(() => api.pools.list.query(namesQuery));
  // `#/shares?share=ID` (an alert's "About") shows that one share, read once: the console opens the screen anew when the address changes.
  const [linkedShare] = useState(() => (/^\d+$/.test(hashParams().get('share') ?? '') ? hashParams().get('share') : null));
  const query = {
    page,
    per_page: perPage,
    sort_by: storageSortParam(order, textColumns),
    ...filterParams(filter),
    ...(linkedShare ? { id: linkedShare } : {}),
  };
  const shares = useLoad(() => api.shares.list.query({ query }), JSON.stringify(query));
  const jobs = useShareJobs(() => shares.reload());
  const bulkJobs = useBulkJobs(shares.data?.nas_shares, jobs.follow);

  const nasRows = nas.data?.nas ?? [];
  const nasNames = new Map(nasRows.map((item) => [item.id, item.name]));
  const poolNames = new Map(pools.data?.pools.map((pool) => [pool.id, pool.name]));
  const count = shares.data?.count ?? 0;
  const filtered = isShareFiltered(filter) || linkedShare !== null;

  usePageInRange(page, shares.data?.count, perPage, setPage);

  const edit = (share: ShareRow) => {
    setEditing(share);
    setNotice(null);
    requestAnimationFrame(() => formArea.current?.querySelector<HTMLInputElement>('input[name="name"]')?.focus());
  };

  const error = shares.error ?? nas.error;
  return (
    <>
      <ErrorAlert message={error} />
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      {nas.data && nasRows.length === 0 && (
        <EmptyState title="No NAS yet">
          A share lives on a NAS: add one on the <a href="#/nas">NAS screen</a> first, then come back to create its shares.
        </EmptyState>
      )}
      {linkedShare && (
        <p className="notice" role="status">
          {shares.data?.count === 0 ? 'The share this link names is no longer there.' : 'Showing the share you opened.'} <a href="#/shares">Show every share</a>
        </p>
      )}
      {nasRows.length > 0 && <SharesFilter nas={nasRows} value={filter} onChange={setFilter} />}
      {shares.data && count === 0 && nasRows.length > 0 && !filtered && (
        <EmptyState title="No shares yet">
          Create the first one with the form below: pick its NAS, give it a name and its path on the NAS, then Test it.
        </EmptyState>
      )}
      {shares.data && count === 0 && filtered && (
        <EmptyState title="No share matches the filter">Change the filter, or clear it to see every share.</EmptyState>
      )}
      {shares.data && count > 0 && (
        <>
          <p className="storage-count">
            {plural(count, 'share')}
            {filtered ? (count === 1 ? ' matches the filter' : ' match the filter') : ''}
          </p>
          <ShareBulkBar
            selection={selecting.selection}
            count={count}
            pageIds={shares.data.nas_shares.map((share) => share.id)}
            filter={filterParams(filter)}
            pools={pools.data?.pools ?? []}
            onSelectAllMatching={selecting.selectAllMatching}
            onClear={selecting.clear}
            onDone={() => (shares.reload(), pools.reload())}
            onJobsStarted={bulkJobs.queue}
          />
          <ShareTable
            isSelected={(share) => isSelected(selecting.selection, share.id)}
            onSelect={(share, on) => selecting.toggle(share.id, on)}
            onSelectPage={(on) => selecting.togglePage(shares.data?.nas_shares.map((share) => share.id) ?? [], on)}
            shares={shares.data.nas_shares}
            nasNames={nasNames}
            poolNames={poolNames}
            order={order}
            onSort={setOrder}
            jobs={jobs.jobs}
            onJob={(share, kind) => void jobs.start(share.id, kind)}
            onDismissJob={(share) => jobs.dismiss(share.id)}
            editingId={editing?.id}
            onEdit={edit}
            onDeleted={(share) => {
              jobs.dismiss(share.id);
              if (editing?.id === share.id) setEditing(null);
              setNotice(`Share ${shareTitle(share, nasNames)} deleted.`);
              shares.reload();
            }}
          />
          <Pager label="Shares" page={page} perPage={perPage} count={count} onPage={setPage} onPerPage={setPerPage} />
        </>
      )}
      {nasRows.length > 0 && (
        <div ref={formArea}>
          <ShareForm
            key={editing?.id ?? 'new'}
            nas={nasRows}
            editing={editing}
            defaultNasId={filter.nasId}
            onCancel={() => setEditing(null)}
            onSaved={(share, created) => {
              setNotice(
                created
                  ? `Share ${shareTitle(share, nasNames)} created. Test it from its row to check that it can be reached.`
                  : `Share ${shareTitle(share, nasNames)} saved.`,
              );
              setEditing(null);
              shares.reload();
            }}
          />
        </div>
      )}
    </>
  );
}
