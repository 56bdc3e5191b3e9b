import { useRef, useState, type RefObject } from 'react';
import { api } from '../../trpc-client.js';
import { useLoad } from '../../ui/use-load.js';
import { EmptyState } from '../../ui/empty-state.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { SortableHeader, type SortOrder } from '../../ui/sortable-header.js';
import { Pager } from '../../ui/pager.js';
import { usePageInRange } from '../../ui/use-page-in-range.js';
import { plural } from '../../ui/format.js';
import { PoolForm, type PoolRow } from './pool-form.js';
import { PoolMembers } from './pool-members.js';
import { poolContentLabels, poolTypeLabels } from '../../labels/storage-labels.js';
import './storage.css';
import { ErrorAlert } from '../../ui/error-alert.js';
import { namesInOrder, storageSortParam } from './storage-sort.js';

const perPage = 25;
// Names for the membership editor's hints: the console's NAS and pools, one page of the largest size.
const namesQuery = namesInOrder;
/** The pool table's text columns: sorted ignoring case (the core's `:ci`). */
const textColumns = new Set(['name', 'comment']);

/** Pools: a sortable, paged table, a form for the pool's fields, and an editor for its shares. */
export function PoolsScreen() {
  const [order, setOrder] = useState<SortOrder>({ field: 'name', direction: 'asc' });
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<PoolRow | null>(null);
  const [membersOf, setMembersOf] = useState<PoolRow | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const query = { page, per_page: perPage, sort_by: storageSortParam(order, textColumns) };
  const list = useLoad(() => api.pools.list.query(query), JSON.stringify(query));
  const nas = useLoad(() => api.nas.list.query(namesQuery));
  const allPools = useLoad(() => api.pools.list.query(namesQuery));
  const formArea = useRef<HTMLDivElement>(null);
  const membersArea = useRef<HTMLDivElement>(null);
  const count = list.data?.count ?? 0;
  const nasNames = new Map(nas.data?.nas.map((item) => [item.id, item.name]));
  const poolNames = new Map(allPools.data?.pools.map((pool) => [pool.id, pool.name]));

  usePageInRange(page, list.data?.count, perPage, setPage);

  const reload = () => {
    list.reload();
    allPools.reload();
  };
  const focusIn = (area: RefObject<HTMLDivElement | null>, selector: string) =>
    requestAnimationFrame(() => area.current?.querySelector<HTMLElement>(selector)?.focus());

  return (
    <>
      <ErrorAlert message={list.error} />
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      {list.data && count === 0 && (
        <EmptyState title="No pools yet">
          Add the first one with the form below; then choose its shares with its Shares button. A pool whose content is NAS shares groups shares from any NAS.
        </EmptyState>
      )}
      {list.data && count > 0 && (
        <>
          <p className="storage-count">{plural(count, 'pool')}</p>
          <table aria-label="Pools">
            <thead>
              <tr>
                <SortableHeader field="name" label="Name" order={order} onSort={setOrder} />
                <SortableHeader field="type" label="Type" order={order} onSort={setOrder} />
                <SortableHeader field="content" label="Content" order={order} onSort={setOrder} />
                <SortableHeader field="comment" label="Comment" order={order} onSort={setOrder} />
                <th scope="col" className="number">
                  Shares
                </th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {list.data.pools.map((pool) => (
                <tr key={pool.id} data-editing={editing?.id === pool.id || membersOf?.id === pool.id ? 'true' : undefined}>
                  <td>{pool.name}</td>
                  <td>{poolTypeLabels[pool.type]}</td>
                  <td>{poolContentLabels[pool.content]}</td>
                  <td>{pool.comment ?? ''}</td>
                  <td className="number">{pool.content === 'nas' ? pool.nas_share_ids.length : '–'}</td>
                  <td>
                    <span className="row-actions">
                      <button
                        type="button"
                        className="secondary"
                        aria-label={`Choose the shares of pool ${pool.name}`}
                        onClick={() => {
                          setMembersOf(pool);
                          setNotice(null);
                          focusIn(membersArea, 'h2');
                        }}
                      >
                        Shares…
                      </button>
                      <button
                        type="button"
                        className="secondary"
                        aria-label={`Edit pool ${pool.name}`}
                        onClick={() => {
                          setEditing(pool);
                          setNotice(null);
                          focusIn(formArea, 'input[name="name"]');
                        }}
                      >
                        Edit
                      </button>
                      <ConfirmButton
                        label="Delete"
                        accessibleLabel={`Delete pool ${pool.name}`}
                        question={`Delete pool ${pool.name}? Its shares are kept, outside any pool.`}
                        onConfirm={async () => {
                          const { released_nas_share_ids: released } = await api.pools.delete.mutate({ pool: pool.id });
                          if (editing?.id === pool.id) setEditing(null);
                          if (membersOf?.id === pool.id) setMembersOf(null);
                          const kept =
                            released.length === 1 ? ' Its share is kept, now in no pool.' : ` Its ${released.length} shares are kept, now in no pool.`;
                          setNotice(`Pool ${pool.name} deleted.${released.length > 0 ? kept : ''}`);
                          reload();
                        }}
                      />
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager label="Pools" page={page} perPage={perPage} count={count} onPage={setPage} />
        </>
      )}
      <div ref={membersArea}>
        {membersOf && (
          <PoolMembers key={membersOf.id} pool={membersOf} nasNames={nasNames} poolNames={poolNames} onSaved={reload} onClose={() => setMembersOf(null)} />
        )}
      </div>
      <div ref={formArea}>
        <PoolForm
          key={editing?.id ?? 'new'}
          editing={editing}
          onCancel={() => setEditing(null)}
          onSaved={(pool, created) => {
            setNotice(created ? `Pool ${pool.name} added. Next: choose its shares with its Shares… button.` : `Pool ${pool.name} saved.`);
            setEditing(null);
            if (membersOf?.id === pool.id) setMembersOf(pool);
            reload();
          }}
        />
      </div>
    </>
  );
}
