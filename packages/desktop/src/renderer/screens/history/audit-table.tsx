import { Fragment } from 'react';
import { preciseTime } from '../../ui/format.js';
import { auditActionLabels, auditViaLabels, resourceTypeLabel } from './history-labels.js';
import { AuditChanges, type AuditEventRow } from './audit-changes.js';

const columns = 6;

/** "Share projects", "Settings": what an event acted on, by its type and name (or id). */
function resourceText(event: AuditEventRow): string {
  if (!event.resource) return '';
  const { type, id, name } = event.resource;
  const which = name ?? (id === null ? '' : `#${id}`);
  return `${resourceTypeLabel(type)}${which ? ` ${which}` : ''}`;
}

/** What one row says of an event, for its button's name and its detail's: "admin updated Share projects". */
function eventSummary(event: AuditEventRow): string {
  return `${auditActionLabels[event.action]} ${resourceText(event)} by ${event.actor.name}, ${preciseTime(event.at)}`.replace(/\s+/g, ' ');
}

interface AuditTableProps {
  events: AuditEventRow[];
  openId: number | null;
  onToggle: (id: number) => void;
}

/**
 * One page of the audit log, newest first. A row's first cell is a button that opens the event's
 * changes in a row under it (a click anywhere on the row does the same).
 */
export function AuditTable({ events, openId, onToggle }: AuditTableProps) {
  return (
    <table aria-label="Audit events" className="history-table">
      <thead>
        <tr>
          <th scope="col">At</th>
          <th scope="col">Actor</th>
          <th scope="col">Via</th>
          <th scope="col">Action</th>
          <th scope="col">Resource</th>
          <th scope="col">Outcome</th>
        </tr>
      </thead>
      <tbody>
        {events.map((event) => {
          const open = openId === event.id;
          const detailId = `audit-detail-${event.id}`;
          return (
            <Fragment key={event.id}>
              <tr className="history-row" data-open={open ? 'true' : undefined} onClick={() => onToggle(event.id)}>
                <td className="time">
                  <button
                    type="button"
                    className="row-toggle"
                    aria-expanded={open}
                    aria-controls={open ? detailId : undefined}
                    aria-label={`${eventSummary(event)}: details`}
                  >
                    <span className="toggle-mark" aria-hidden="true">
                      {open ? '▾' : '▸'}
                    </span>{' '}
                    {preciseTime(event.at)}
                  </button>
                </td>
                <td>
                  {event.actor.name}
                  {/* A key's name could be a user's; the system's name says what it is. */}
                  {event.actor.kind === 'api_key' && <span className="hint"> (API key)</span>}
                </td>
                <td>{auditViaLabels[event.via]}</td>
                <td>{auditActionLabels[event.action]}</td>
                <td>{resourceText(event)}</td>
                <td>
                  <span className="status" data-status={event.outcome === 'failure' ? 'failed' : 'completed'}>
                    {event.outcome}
                  </span>
                  {event.count > 1 && <span className="hint"> × {event.count}</span>}
                </td>
              </tr>
              {open && (
                <tr className="job-row history-detail-row">
                  <td colSpan={columns}>
                    <AuditChanges event={event} id={detailId} label={eventSummary(event)} />
                  </td>
                </tr>
              )}
            </Fragment>
          );
        })}
      </tbody>
    </table>
  );
}
