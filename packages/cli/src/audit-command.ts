import { parseArgs } from 'node:util';
import { auditActions, type AuditEvent } from '@dms/core';
import { CliError } from './cli-error.js';
import { cliPrincipal } from './cli-principal.js';
import { isoInstantForms, parseIsoInstant } from './iso-instant.js';
import { equalTo, oneOf } from './list-flags.js';
import { notePartialPage, printTable } from './table.js';
import { withDms, type Output } from './with-dms.js';

export const auditUsage = 'usage: dms audit list [--since ISO-8601] [--action A] [--actor NAME] [--limit N]';

/** `nas_shares/3 'projects'`: what an event was about, in one column; `-` for none (a sign-in). */
function resourceText(resource: AuditEvent['resource']): string {
  if (resource === null) return '-';
  return `${resource.type}/${resource.id ?? '-'}${resource.name === null ? '' : ` '${resource.name}'`}`;
}

function eventRow(event: AuditEvent): string[] {
  return [event.at, event.actor.name, event.via, event.action, resourceText(event.resource), event.outcome, String(event.count)];
}

/** `dms audit list`: the audit log, newest first, with the filters of GET /audit_events. */
export async function audit(args: string[], out: Output): Promise<number> {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: { since: { type: 'string' }, action: { type: 'string' }, actor: { type: 'string' }, limit: { type: 'string' } },
  });
  if (positionals.length !== 1 || positionals[0] !== 'list') throw new CliError(auditUsage);
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
