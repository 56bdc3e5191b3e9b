import { preciseTime } from '../../ui/format.js';
import { ColumnHeads, type Column } from '../../ui/column-heads.js';
import { jobStatusLabels } from '../../labels/storage-labels.js';
import { ExpandableRow } from '../../ui/expandable-row.js';
import { auditActionText, auditViaLabels, resourceTypeLabel } from '../../labels/history-labels.js';
import { AuditChanges, type AuditEventRow } from './audit-changes.js';

const auditColumns: Column[] = [{ label: 'At' }, { label: 'Actor' }, { label: 'Via' }, { label: 'Action' }, { label: 'Resource' }, { label: 'Outcome' }];

/** "Share projects", "Settings": what an event acted on, by its type and name (or id). */
function resourceText(event: AuditEventRow): string {
  if (!event.resource) return '';
  const { type, id, name } = event.resource;
  const which = name ?? (id === null ? '' : `#${id}`);
  return `${resourceTypeLabel(type)}${which ? ` ${which}` : ''}`;
}

/** What one row says of an event, for its button's name and its detail's: "admin updated Share projects". */
function eventSummary(event: AuditEventRow): string {
  return `${auditActionText(event)} ${resourceText(event)} by ${event.actor.name}, ${preciseTime(event.at)}`.replace(/\s+/g, ' ');
}

/** Beside a share's test or scan: how the job it started went, linked to it on the Jobs screen. */
function EventJob({ event }: { event: AuditEventRow }) {
  if (event.action !== 'test' && event.action !== 'scan') return null;
  if (event.resource?.type !== 'nas_shares' || event.outcome !== 'success') return null;
  if (!event.job) return <span className="hint"> (its job is no longer kept)</span>;
  const what = event.action === 'test' ? 'Test' : 'Scan';
  return (
    <>
      {' '}
      <a href={`#/jobs?job=${encodeURIComponent(event.job.job_id)}`} className="event-job" onClick={(click) => click.stopPropagation()}>
        <span className="status" data-status={event.job.status}>
          {what} {jobStatusLabels[event.job.status]}
        </span>
      </a>
    </>
  );
}

interface AuditTableProps {
  events: AuditEventRow[];
  openId: number | null;
  onToggle: (id: number) => void;
}

/** One page of the audit log, newest first; a row opens the event's changes under it. */
export function AuditTable({ events, openId, onToggle }: AuditTableProps) {
  return (
    <table aria-label="Audit events" className="history-table">
      <ColumnHeads columns={auditColumns} />
      <tbody>
        {events.map((event) => (
          <ExpandableRow
            key={event.id}
            open={openId === event.id}
            detailId={`audit-detail-${event.id}`}
            summary={eventSummary(event)}
            onToggle={() => onToggle(event.id)}
            toggleText={preciseTime(event.at)}
            toggleCellClass="time"
            columns={auditColumns.length}
            detail={() => <AuditChanges event={event} id={`audit-detail-${event.id}`} label={eventSummary(event)} />}
          >
            <td>
              {event.actor.name}
              {/* A key's name could be a user's; the system's name says what it is. */}
              {event.actor.kind === 'api_key' && <span className="hint"> (API key)</span>}
            </td>
            <td>{auditViaLabels[event.via]}</td>
            <td>
              {auditActionText(event)}
              <EventJob event={event} />
            </td>
            <td>{resourceText(event)}</td>
            <td>
              <span className="status" data-status={event.outcome === 'failure' ? 'failed' : 'completed'}>
                {event.outcome}
              </span>
              {event.count > 1 && <span className="hint"> × {event.count}</span>}
            </td>
          </ExpandableRow>
        ))}
      </tbody>
    </table>
  );
}
