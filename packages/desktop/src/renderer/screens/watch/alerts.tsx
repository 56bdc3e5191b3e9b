import { api } from '../../trpc-client.js';
import { useLoad } from '../../ui/use-load.js';
import { useAlertsReload } from '../../ui/use-alerts-reload.js';
import { notifyAlertsChanged } from '../../ui/alerts-changed.js';
import { EmptyState } from '../../ui/empty-state.js';
import { ErrorAlert } from '../../ui/error-alert.js';
import { Pager } from '../../ui/pager.js';
import { usePageInRange } from '../../ui/use-page-in-range.js';
import { ListCount, useFilteredPages } from '../../ui/list-screen.js';
import { AlertsFilter, alertFilterParams, isAlertFiltered, openAlerts, type AlertFilter } from './alerts-filter.js';
import { AlertTable } from '../../ui/alerts/alert-table.js';
import '../../ui/admin.css';
import './watch.css';

/**
 * What dms noticed unasked: shares that stopped answering, failed scans, missed schedules,
 * expiring keys, a degraded storage, a full queue. Open ones first by default; newest first;
 * read again on an interval, as the header's count is.
 */
export function AlertsScreen() {
  const { filter, setFilter, page, setPage, perPage, setPerPage, pageQuery } = useFilteredPages<AlertFilter>(openAlerts);

  const query = { ...pageQuery, ...alertFilterParams(filter) };
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
      {/* Refresh reads the header's count again too. */}
      {alerts.data && <ListCount count={count} noun={noun} filtered={filtered} onRefresh={notifyAlertsChanged} />}
      {alerts.data && count === 0 && (
        <EmptyState title={filtered ? 'No alert matches the filter' : filter.state === 'open' ? 'No open alerts' : 'No alerts yet'}>
          {filtered ? 'Change the filter, or clear it to see every alert.' : 'All is well: alerts appear here as dms notices a problem.'}
        </EmptyState>
      )}
      {alerts.data && count > 0 && (
        <>
          <AlertTable alerts={alerts.data.alerts} onChanged={alerts.reload} name={{ label: 'Alerts' }} withHistory />
          <Pager label="Alerts" page={page} perPage={perPage} count={count} onPage={setPage} onPerPage={setPerPage} />
        </>
      )}
    </>
  );
}
