import { useRef, useState } from 'react';
import { api } from '../../trpc-client.js';
import { useLoad } from '../../ui/use-load.js';
import { NasShareCells } from './nas-share-cells.js';
import { EmptyState } from '../../ui/empty-state.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { SortableHeader, type SortOrder } from '../../ui/sortable-header.js';
import { Pager } from '../../ui/pager.js';
import { usePageInRange } from '../../ui/use-page-in-range.js';
import { plural } from '../../ui/format.js';
import { NasForm, type NasRow } from './nas-form.js';
import { nasTypeLabels } from '../../labels/storage-labels.js';
import './storage.css';
import { ErrorAlert } from '../../ui/error-alert.js';
import { isConflict } from '../../ui/form-problem.js';
import { storageSortParam } from './storage-sort.js';

const perPage = 25;
/** The NAS table's text columns: sorted ignoring case (the core's `:ci`). */
const textColumns = new Set(['name', 'host', 'comment']);

/** The NAS devices: a sortable, paged table, a form to add or edit one, and deletion behind a question. */
export function NasScreen() {
  const [order, setOrder] = useState<SortOrder>({ field: 'name', direction: 'asc' });
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<NasRow | null>(null);
  const [notice, setNotice] = useState<{ name: string; created: boolean } | null>(null);
  const query = { page, per_page: perPage, sort_by: storageSortParam(order, textColumns) };
  const list = useLoad(() => api.nas.list.query(query), JSON.stringify(query));
  const ids = list.data?.nas.map((nas) => nas.id) ?? [];
  const health = useLoad(() => (ids.length > 0 ? api.nas.shareHealth.query({ ids }) : Promise.resolve([])), ids.join(','));
  const capacity = useLoad(() => api.statistics.capacity.query());
  const healthOf = new Map(health.data?.map((row) => [row.nas_id, row]));
  const capacityOf = new Map(capacity.data?.nas.map((row) => [row.nas_id, row]));
  const form = useRef<HTMLDivElement>(null);
  const count = list.data?.count ?? 0;

  usePageInRange(page, list.data?.count, perPage, setPage);

  const edit = (nas: NasRow) => {
    setEditing(nas);
    setNotice(null);
    // The form is below the table: take the keyboard there, on its first field.
    requestAnimationFrame(() => form.current?.querySelector<HTMLInputElement>('input[name="name"]')?.focus());
  };

  return (
    <>
      <ErrorAlert message={list.error} />
      {notice && (
        <p className="notice" role="status">
          NAS <strong>{notice.name}</strong> {notice.created ? 'added' : 'saved'}.{' '}
          {notice.created && (
            <>
              Next: <a href="#/shares">add its shares</a> on the Shares screen.
            </>
          )}
        </p>
      )}
      {list.data && count === 0 && (
        <EmptyState title="No NAS yet">
          Add the first one with the form below: a name, its type and its host (for a directory on this computer, type Local directory and host localhost). Then
          add its shares on the Shares screen.
        </EmptyState>
      )}
      {list.data && count > 0 && (
        <>
          <p className="storage-count">{plural(count, 'NAS', 'NAS')}</p>
          <table aria-label="NAS">
            <thead>
              <tr>
                <SortableHeader field="name" label="Name" order={order} onSort={setOrder} />
                <SortableHeader field="host" label="Host" order={order} onSort={setOrder} />
                <SortableHeader field="type" label="Type" order={order} onSort={setOrder} />
                <SortableHeader field="comment" label="Comment" order={order} onSort={setOrder} />
                <SortableHeader field="price" label="Price" order={order} onSort={setOrder} className="number" />
                <th scope="col" className="number">
                  Shares
                </th>
                <th scope="col">Health</th>
                <th scope="col">Capacity</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {list.data.nas.map((nas) => (
                <tr key={nas.id} data-editing={editing?.id === nas.id ? 'true' : undefined}>
                  <td>{nas.name}</td>
                  <td>{nas.host}</td>
                  <td>{nasTypeLabels[nas.type]}</td>
                  <td>{nas.comment ?? ''}</td>
                  <td className="number">{nas.price ?? ''}</td>
                  <NasShareCells nasId={nas.id} health={healthOf.get(nas.id)} capacity={capacityOf.get(nas.id)} />
                  <td>
                    <span className="row-actions">
                      <button type="button" className="secondary" aria-label={`Edit NAS ${nas.name}`} onClick={() => edit(nas)}>
                        Edit
                      </button>
                      <ConfirmButton
                        label="Delete"
                        accessibleLabel={`Delete NAS ${nas.name}`}
                        question={`Delete NAS ${nas.name}? A NAS that still has shares is kept: delete its shares first.`}
                        onConfirm={async () => {
                          await api.nas.delete.mutate({ nas: nas.id });
                          if (editing?.id === nas.id) setEditing(null);
                          setNotice(null);
                          list.reload();
                        }}
                        refusalHelp={(error) => (isConflict(error) ? <a href={`#/shares?nas_id=${nas.id}`}>Show the shares of NAS {nas.name}</a> : null)}
                      />
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager label="NAS" page={page} perPage={perPage} count={count} onPage={setPage} />
        </>
      )}
      <div ref={form}>
        <NasForm
          key={editing?.id ?? 'new'}
          editing={editing}
          onCancel={() => setEditing(null)}
          onSaved={(nas, created) => {
            setNotice({ name: nas.name, created });
            setEditing(null);
            list.reload();
          }}
        />
      </div>
    </>
  );
}
