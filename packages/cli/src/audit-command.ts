import { auditActions, type AuditEvent } from '@dms/core';
import { CliError } from './cli-error.js';
import { cliPrincipal } from './cli-principal.js';
import { isoInstantForms, parseIsoInstant } from './iso-instant.js';
import { equalTo, oneOf } from './list-flags.js';
import { notePartialPage, printTable } from './table.js';
import { withDms, type Output } from './with-dms.js';

/** `nas_shares/3 'projects'`: what an event was about, in one column; `-` for none (a sign-in). */
function resourceText(resource: AuditEvent['resource']): string {
  if (resource === null) return '-';
  return `${resource.type}/${resource.id ?? '-'}${resource.name === null ? '' : ` '${resource.name}'`}`;
}

function eventRow(event: AuditEvent): string[] {
  return [event.at, event.actor.name, event.via, event.action, resourceText(event.resource), event.outcome, String(event.count)];
}

/** `dms audit list`: the audit log, newest first, with the filters of GET /audit_events. */
export async function auditList(values: { since?: string; action?: string; actor?: string; limit?: string }, out: Output): Promise<number> {
  const action = oneOf('action', values.action, auditActions);
  let since: string | undefined;
  if (values.since !== undefined) {
    since = parseIsoInstant(values.since);
    if (since === undefined) throw new CliError(`--since '${values.since}' is not an ISO 8601 date: give ${isoInstantForms}`);
  }
  const { count, audit_events: events } = await withDms((dms) =>
    dms.core.auditEvents.list(cliPrincipal, {
      at: since === undefined ? undefined : [`>=${since}`],
      action: equalTo(action),
      actor: equalTo(values.actor),
      limit: values.limit === undefined ? undefined : [values.limit],
    }),
  );
  printTable(out, {
    none: 'no audit events',
    header: ['at', 'actor', 'via', 'action', 'resource', 'outcome', 'count'],
    rows: events.map(eventRow),
  });
  notePartialPage(events.length, count, 'audit events');
  return 0;
}
