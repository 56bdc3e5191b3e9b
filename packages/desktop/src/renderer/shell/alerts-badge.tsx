import { api } from '../trpc-client.js';
import { useLoad } from '../ui/use-load.js';
import { useAlertsReload } from '../ui/use-alerts-reload.js';
import '../ui/admin.css';

/**
 * The header's count of open alerts no one has dismissed, on every screen, linking to the Alerts
 * screen; read again on an interval, on each change of screen and whenever an alert is dismissed
 * here. Nothing to count (or the count unknown) shows a quiet link.
 */
export function AlertsBadge({ route }: { route: string }) {
  // Read again on each move to another screen, too: alerts come and go unasked.
  const unseen = useLoad(() => api.alerts.unseenCount.query(), route);
  useAlertsReload(unseen.reload);
  const count = unseen.data ?? 0;
  // Seen: the word and the number; heard: the count in words (the name is the hidden sentence alone).
  return (
    <a href="#/alerts" className="alerts-badge" data-count={count}>
      <span aria-hidden="true">Alerts</span>
      <span className="badge-count" aria-hidden="true">
        {count}
      </span>
      <span className="visually-hidden">{count === 0 ? 'Alerts: none open' : `Alerts: ${count} open, not dismissed`}</span>
    </a>
  );
}
