import { useState } from 'react';
import { api } from '../../trpc-client.js';
import { EmptyState } from '../../ui/empty-state.js';
import { ErrorAlert } from '../../ui/error-alert.js';
import { AdminOnly } from '../../ui/admin-only.js';
import { Pager } from '../../ui/pager.js';
import { usePageInRange } from '../../ui/use-page-in-range.js';
import { useLoad } from '../../ui/use-load.js';
import { useRefusableLoad } from '../../ui/use-refusable-load.js';
import { ListCount, useFilteredPages } from '../../ui/list-screen.js';
import { AuditFilterBar, auditFilterParams, isAuditFiltered, noAuditFilter, type AuditFilter } from './audit-filter.js';
import { AuditTable } from './audit-table.js';
import '../../ui/admin.css';
import './history.css';

/**
 * Who changed what, when, and through which way in (REST, CLI, this console, the scheduler):
 * admin-only, newest first, filtered and paged by the core; a row opens its changes field by field.
 */
export function AuditScreen() {
  const { filter, setFilter, page, setPage, perPage, setPerPage, pageQuery } = useFilteredPages<AuditFilter>(noAuditFilter);
  const [openId, setOpenId] = useState<number | null>(null);

  const query = { ...pageQuery, ...auditFilterParams(filter) };
  const resourceTypes = useLoad(() => api.auditEvents.resourceTypes.query());
  const events = useRefusableLoad(() => api.auditEvents.list.query(query), JSON.stringify(query));
  usePageInRange(page, events.data?.count, perPage, setPage);
  if (events.refusal) return <AdminOnly what="read the audit log" refusal={events.refusal} />;

  const count = events.data?.count ?? 0;
  const filtered = isAuditFiltered(filter);
  return (
    <>
      <p className="hint">
        Every change made through the REST API, the CLI, this console or the scheduler, and every sign-in. Secrets show only that they changed.
      </p>
      <ErrorAlert message={events.error} />
      <AuditFilterBar value={filter} onChange={setFilter} resourceTypes={resourceTypes.data ?? []} />
      {events.data && count === 0 && (
        <EmptyState title={filtered ? 'No event matches the filter' : 'No events yet'}>
          {filtered ? 'Change the filter, or clear it to see every event.' : 'Changes and sign-ins appear here as they happen.'}
        </EmptyState>
      )}
      {events.data && count > 0 && (
        <>
          <ListCount
            count={count}
            atLeast={events.data.countIsLowerBound}
            noun="event"
            filtered={filtered}
            onRefresh={() => (events.reload(), resourceTypes.reload())}
          />
          <AuditTable events={events.data.audit_events} openId={openId} onToggle={(id) => setOpenId((current) => (current === id ? null : id))} />
          <Pager
            label="Audit events"
            page={page}
            perPage={perPage}
            count={count}
            atLeast={events.data.countIsLowerBound}
            onPage={setPage}
            onPerPage={setPerPage}
          />
        </>
      )}
    </>
  );
}
