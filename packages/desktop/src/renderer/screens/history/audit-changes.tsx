import type { secretChange } from '@dms/core';
import type { Outputs } from '../../trpc-client.js';
import { resourceTypeLabel } from '../../labels/history-labels.js';
import { ColumnHeads } from '../../ui/column-heads.js';

/** An audit event as the console receives it (the core's `AuditEvent`, through tRPC). */
export type AuditEventRow = Outputs['auditEvents']['list']['audit_events'][number];
type AuditChange = NonNullable<AuditEventRow['changes']>[string];

// The core's word for a secret's change, typed by it: the renderer takes no value from a module
// that builds zod schemas (the whole of zod would come with it).
const secretMark: typeof secretChange = 'changed';

/** A recorded value as words: none, yes/no, a list, or the JSON of anything richer. */
function valueText(value: unknown): string {
  if (value === null || value === undefined || value === '') return '(none)';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  if (Array.isArray(value) && value.every((item) => typeof item === 'string' || typeof item === 'number')) return value.length ? value.join(', ') : '(none)';
  return JSON.stringify(value);
}

function ChangeRow({ field, change }: { field: string; change: AuditChange }) {
  if (change === secretMark) {
    return (
      <tr data-secret="true">
        <th scope="row">{field}</th>
        <td colSpan={2}>
          changed <span className="hint">(a secret: its values are never recorded)</span>
        </td>
      </tr>
    );
  }
  return (
    <tr>
      <th scope="row">{field}</th>
      <td>{valueText(change.from)}</td>
      <td>{valueText(change.to)}</td>
    </tr>
  );
}

/** One event in full: each changed field with its value before and after (a secret only as "changed"), and where it came from. */
export function AuditChanges({ event, id, label }: { event: AuditEventRow; id: string; label: string }) {
  const changes = Object.entries(event.changes ?? {});
  return (
    <section className="history-detail" id={id} aria-label={label}>
      {changes.length > 0 ? (
        <table className="audit-changes" aria-label={`Changes: ${label}`}>
          <ColumnHeads columns={[{ label: 'Field' }, { label: 'Before' }, { label: 'After' }]} />
          <tbody>
            {changes.map(([field, change]) => (
              <ChangeRow key={field} field={field} change={change} />
            ))}
          </tbody>
        </table>
      ) : (
        <p className="hint">No field changes are recorded for this event.</p>
      )}
      <dl className="facts">
        {event.resource && (
          <>
            <dt>Resource</dt>
            <dd>
              {resourceTypeLabel(event.resource.type)} {event.resource.name ?? ''}
              {event.resource.id !== null && <span className="hint"> (id {event.resource.id})</span>}
            </dd>
          </>
        )}
        <dt>Client address</dt>
        <dd>{event.client_address ?? '–'}</dd>
        <dt>Request id</dt>
        <dd>{event.request_id ? <code className="admin-code">{event.request_id}</code> : '–'}</dd>
        <dt>Event id</dt>
        <dd>{event.id}</dd>
      </dl>
    </section>
  );
}
