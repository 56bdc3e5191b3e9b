import { useCallback, useState } from 'react';
import { api } from '../../trpc-client.js';
import { useLoad } from '../../ui/use-load.js';
import { useAlertsReload } from '../../ui/use-alerts-reload.js';
import { notifyAlertsChanged } from '../../ui/alerts-changed.js';
import { EmptyState } from '../../ui/empty-state.js';
import { ErrorAlert } from '../../ui/error-alert.js';
import { Pager } from '../../ui/pager.js';
import { usePageInRange } from '../../ui/use-page-in-range.js';
import { plural } from '../../ui/format.js';
import { AlertsFilter, alertFilterParams, isAlertFiltered, openAlerts, type AlertFilter } from './alerts-filter.js';
import { AlertTable } from './alert-table.js';
import '../../ui/admin.css';
import '../storage/storage.css';
import '../dashboard/dashboard.css';
import '../history/history.css';
import './watch.css';

/**
 * What dms noticed unasked: shares that stopped answering, failed scans, missed schedules,
 * expiring keys, a degraded storage, a full queue. Open ones first by default; newest first;
 * read again on an interval, as the header's count is.
 */
export function AlertsScreen() {
  const [filter, setFilterState] = useState<AlertFilter>(openAlerts);
  const [page, setPage] = useState(1);
  const [perPage, setPerPageState] = useState(25);
  const setFilter = useCallback((next: AlertFilter) => (setFilterState(next), setPage(1)), []);
  const setPerPage = useCallback((next: number) => (setPerPageState(next), setPage(1)), []);

  const query = { page: String(page), per_page: String(perPage), ...alertFilterParams(filter) };
  const alerts = useLoad(() => api.alerts.list.query(query), JSON.stringify(query));
  useAlertsReload(alerts.reload);
  usePageInRange(page, alerts.data?.count, perPage, setPage);

  const count = alerts.data?.count ?? 0;
  const filtered = isAlertFiltered(filter);
  const noun = filter.state === 'open' ? 'open alert' : 'alert';
  return (
    <>
      <p className="hint">
        An alert is raised when a condition starts, updated while it lasts and cleared when it ends. Dismiss one to take it out of the count in the header; it
        still clears by itself. Which sources raise alerts, and at which level, is set under <a href="#/alert-settings">Alert settings</a>.
      </p>
      <ErrorAlert message={alerts.error} />
      <AlertsFilter value={filter} onChange={setFilter} />
      {alerts.data && (
        <div className="history-toolbar">
          <p className="storage-count">
            {plural(count, noun)}
            {filtered ? ` ${count === 1 ? 'matches' : 'match'} the filter` : ''}
          </p>
          {/* Reads the header's count again too. */}
          <button type="button" className="secondary small" onClick={notifyAlertsChanged}>
            Refresh
          </button>
        </div>
      )}
      {alerts.data && count === 0 && (
        <EmptyState title={filtered ? 'No alert matches the filter' : filter.state === 'open' ? 'No open alerts' : 'No alerts yet'}>
          {filtered ? 'Change the filter, or clear it to see every alert.' : 'All is well: alerts appear here as dms notices a problem.'}
        </EmptyState>
      )}
      {alerts.data && count > 0 && (
        <>
          <AlertTable alerts={alerts.data.alerts} onChanged={alerts.reload} />
          <Pager label="Alerts" page={page} perPage={perPage} count={count} onPage={setPage} onPerPage={setPerPage} />
        </>
      )}
    </>
  );
}
