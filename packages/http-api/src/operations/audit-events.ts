import { auditEventCollectionSchema, auditEventListSpec } from '@dms/core';
import { listQueryParameters } from '../contracts/list-query-parameters.js';
import { respondJson } from '../http/respond.js';
import { rawQuery } from '../http/raw-query.js';
import { defineOperation } from './operation.js';
import { auditEventExample, collectionExample } from '../contracts/examples.js';
import { countHeader, countHeaderDescription, withCountHeader } from './list-count-header.js';

/** GET /audit_events (docs/decisions/084-audit-trail.md): the record of every change, for administrators. */
export const auditEventOperations = [
  defineOperation({
    operationId: 'listAuditEvents',
    sdkSample: `// Who changed share 7, and how:
const events = dms.auditEvents.listAll({
  filter: { resource_type: eq('nas_shares'), resource_id: eq('7') },
});
for await (const event of events) {
  console.log(event.at, event.actor.name, event.via, event.action, event.changes);
}`,
    handle: async (c, core) => {
      const { body, headers } = withCountHeader(await core.auditEvents.list(c.get('principal'), rawQuery(c)));
      return respondJson(c, body, 200, headers);
    },
    method: 'get',
    path: '/audit_events',
    tag: 'admin',
    summary: 'List audit events',
    description: `Admin only. One page of the audit log and \`count\`, the number of matches (exact up to 10,000 past the page, then a lower bound: see \`${countHeader}\`), newest first (\`at\` descending) unless \`sort_by\` says otherwise. Every change through any host (REST, the CLI, the desktop console, the scheduler) is recorded in the same transaction as the change: who made it (\`actor\`), through which host (\`via\`; over REST also \`client_address\` and \`request_id\`, the \`X-Request-Id\` of the change's answer), what was done to which resource (\`action\`, \`resource\`) and \`changes\`, each changed field as \`{"from": …, "to": …}\`. A secret field (a password, a community, a passphrase) is recorded as \`"changed"\`, never with a value. Failed sign-ins are one event per client address (an IPv6 client by its /64) and UTC hour, whatever the user names tried: \`count\` says how many, \`actor.name\` is the first name tried and \`changes.usernames.to\` the first ten (never a password); beyond 1,000 clients an hour, one event without \`client_address\` counts the failures of every other client. They are kept \`failed_sign_in_retention_days\` (30 by default). Takes \`limit\`/\`offset\` or \`page\`/\`per_page\`, \`sort_by\` and filters (see *Lists* in the introduction) on \`id\`, \`at\` (ISO 8601 UTC, with the compare operators), \`actor\` (the actor's name), \`actor_kind\`, \`via\`, \`action\`, \`resource_type\`, \`resource_id\` and \`outcome\`. Events are kept \`audit_retention_days\` (see the settings).`,
    scope: { controller: 'audit_events', action: 'index' },
    query: listQueryParameters(auditEventListSpec),
    success: {
      status: 200,
      description: 'audit event collection',
      schema: auditEventCollectionSchema,
      example: collectionExample('audit_events', auditEventExample),
      headers: { [countHeader]: countHeaderDescription },
    },
  }),
];
