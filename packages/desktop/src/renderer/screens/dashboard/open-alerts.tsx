import { api } from '../../trpc-client.js';
import { useLoad } from '../../ui/use-load.js';
import { useAlertsReload } from '../../ui/use-alerts-reload.js';
import { ErrorAlert } from '../../ui/error-alert.js';
import { EmptyState } from '../../ui/empty-state.js';
import { plural } from '../../ui/format.js';
import { AlertTable } from '../../ui/alerts/alert-table.js';

/** The dashboard shows the newest few; the Alerts screen has them all. */
const shown = 5;

/** The alerts still open that no one has dismissed, newest first, each with Dismiss; read again with the header's badge. */
export function OpenAlerts() {
  const alerts = useLoad(() => api.alerts.list.query({ cleared_at: 'null', dismissed_at: 'null', limit: String(shown), sort_by: 'level:desc|raised_at:desc' }));
  useAlertsReload(alerts.reload);
  const count = alerts.data?.count ?? 0;
  return (
    <section aria-labelledby="alerts-heading">
      <h2 id="alerts-heading">Open alerts</h2>
      <ErrorAlert message={alerts.error} />
      {alerts.data && count === 0 && (
        <EmptyState title="No open alerts">
          dms raises an alert when a share stops being reachable, a scan fails, a schedule misses runs, and more: see the <a href="#/alerts">Alerts screen</a>.
        </EmptyState>
      )}
      {alerts.data && count > 0 && (
        <>
          <AlertTable alerts={alerts.data.alerts} onChanged={alerts.reload} name={{ labelledBy: 'alerts-heading' }} withHistory={false} />
          <p className="hint">
            {count > shown ? `The ${shown} most severe of ${plural(count, 'open alert')}. ` : ''}
            Every alert, cleared and dismissed ones too, is on the <a href="#/alerts">Alerts screen</a>.
          </p>
        </>
      )}
    </section>
  );
}
