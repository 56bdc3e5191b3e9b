import { shortTime } from '../../ui/format.js';
import { alertSourceLabel } from './watch-labels.js';
import { alertResource, type AlertRow } from './alert-text.js';
import { DismissButton } from './dismiss-button.js';
import { LevelBadge } from './level-badge.js';

/**
 * One page of alerts: each a condition, raised once, seen again while it lasts (last seen),
 * cleared when it ends; Dismiss marks it seen, Undismiss takes that back.
 */
export function AlertTable({ alerts, onChanged }: { alerts: AlertRow[]; onChanged: () => void }) {
  return (
    <table aria-label="Alerts" className="alert-table">
      <thead>
        <tr>
          <th scope="col">Level</th>
          <th scope="col">Source</th>
          <th scope="col">About</th>
          <th scope="col">Message</th>
          <th scope="col">Raised</th>
          <th scope="col">Last seen</th>
          <th scope="col">State</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {alerts.map((alert) => (
          <tr key={alert.id} data-cleared={alert.cleared_at ? 'true' : undefined}>
            <td>
              <LevelBadge level={alert.level} />
            </td>
            <td className="nowrap">{alertSourceLabel(alert.source)}</td>
            <td>{alertResource(alert)}</td>
            <td className="alert-message">{alert.message}</td>
            <td className="time">{shortTime(alert.raised_at)}</td>
            <td className="time">{shortTime(alert.last_seen_at)}</td>
            <td className="time">
              {alert.cleared_at ? (
                <span className="alert-state">
                  Cleared <span className="hint">{shortTime(alert.cleared_at)}</span>
                </span>
              ) : (
                <span className="alert-state">Open</span>
              )}
              {alert.dismissed_at && (
                <span className="alert-state">
                  Dismissed <span className="hint">{shortTime(alert.dismissed_at)}</span>
                </span>
              )}
            </td>
            <td>
              <DismissButton alert={alert} onChanged={onChanged} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
