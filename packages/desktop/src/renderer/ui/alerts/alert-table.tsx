import './alerts.css';
import { ColumnHeads, type Column } from '../column-heads.js';
import { shortTime } from '../format.js';
import { alertSourceLabel } from '../../labels/watch-labels.js';
import { alertResource, alertResourceHref, type AlertRow } from './alert-text.js';
import { DismissButton } from './dismiss-button.js';
import { SilenceActions } from './silence-actions.js';
import { LevelBadge } from './level-badge.js';

const openColumns: Column[] = [{ label: 'Level' }, { label: 'Source' }, { label: 'About' }, { label: 'Message' }, { label: 'Raised' }];
const historyColumns: Column[] = [{ label: 'Last seen' }, { label: 'State' }];
const actionsColumn: Column = { label: 'Actions', hidden: true };

/** What the alert is about, linked to it where the console shows it ("Share media" opens that share). */
function AboutCell({ alert }: { alert: AlertRow }) {
  const text = alertResource(alert);
  const href = alertResourceHref(alert);
  return href ? <a href={href}>{text}</a> : <>{text}</>;
}

interface AlertTableProps {
  alerts: AlertRow[];
  onChanged: () => void;
  /** The table's name: its heading's id, or a label of its own. */
  name: { labelledBy: string } | { label: string };
  /** Whether the table shows when each alert was last seen and whether it was cleared or dismissed (the Alerts screen), or only open ones (the overview). */
  withHistory: boolean;
}

/**
 * Alerts: each a condition, raised once, seen again while it lasts (last seen), cleared when it
 * ends; Dismiss marks it seen, Undismiss takes that back.
 */
export function AlertTable({ alerts, onChanged, name, withHistory }: AlertTableProps) {
  const columns = [...openColumns, ...(withHistory ? historyColumns : []), actionsColumn];
  return (
    <table aria-labelledby={'labelledBy' in name ? name.labelledBy : undefined} aria-label={'label' in name ? name.label : undefined} className="alert-table">
      <ColumnHeads columns={columns} />
      <tbody>
        {alerts.map((alert) => (
          <tr key={alert.id} data-cleared={alert.cleared_at ? 'true' : undefined}>
            <td>
              <LevelBadge level={alert.level} />
            </td>
            <td className="nowrap">{alertSourceLabel(alert.source)}</td>
            <td>
              <AboutCell alert={alert} />
            </td>
            <td className="alert-message">
              {alert.message}
              {!withHistory && alert.silenced && <span className="hint"> (silenced)</span>}
            </td>
            <td className="time nowrap">{shortTime(alert.raised_at)}</td>
            {withHistory && (
              <>
                <td className="time">{shortTime(alert.last_seen_at)}</td>
                <td className="time">
                  <span className="alert-state">
                    {alert.cleared_at ? (
                      <>
                        Cleared <span className="hint">{shortTime(alert.cleared_at)}</span>
                      </>
                    ) : (
                      'Open'
                    )}
                  </span>
                  {alert.silenced && <span className="alert-state">Silenced</span>}
                  {alert.dismissed_at && (
                    <span className="alert-state">
                      Dismissed <span className="hint">{shortTime(alert.dismissed_at)}</span>
                    </span>
                  )}
                </td>
              </>
            )}
            <td>
              <div className="alert-actions">
                <DismissButton alert={alert} onChanged={onChanged} />
                <SilenceActions alert={alert} onChanged={onChanged} />
              </div>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
