import { api } from '../../trpc-client.js';
import { useLoad } from '../../ui/use-load.js';
import { useAlertsReload } from '../../ui/use-alerts-reload.js';
import { ErrorAlert } from '../../ui/error-alert.js';
import { EmptyState } from '../../ui/empty-state.js';
import { plural, shortTime } from '../../ui/format.js';
import { alertSourceLabel } from '../watch/watch-labels.js';
import { alertResource } from '../watch/alert-text.js';
import { DismissButton } from '../watch/dismiss-button.js';
import { LevelBadge } from '../watch/level-badge.js';

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
          <table aria-labelledby="alerts-heading" className="alert-table">
            <thead>
              <tr>
                <th scope="col">Level</th>
                <th scope="col">Source</th>
                <th scope="col">About</th>
                <th scope="col">Message</th>
                <th scope="col">Raised</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {alerts.data.alerts.map((alert) => (
                <tr key={alert.id}>
                  <td>
                    <LevelBadge level={alert.level} />
                  </td>
                  <td className="nowrap">{alertSourceLabel(alert.source)}</td>
                  <td>{alertResource(alert)}</td>
                  <td>{alert.message}</td>
                  <td className="nowrap">{shortTime(alert.raised_at)}</td>
                  <td>
                    <DismissButton alert={alert} onChanged={alerts.reload} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="hint">
            {count > shown ? `The ${shown} most severe of ${plural(count, 'open alert')}. ` : ''}
            Every alert, cleared and dismissed ones too, is on the <a href="#/alerts">Alerts screen</a>.
          </p>
        </>
      )}
    </section>
  );
}
