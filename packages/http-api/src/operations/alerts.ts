import { alertCollectionSchema, alertListSpec, alertSchema, alertSourceCatalogue, alertUpdateSchema } from '@dms/core';
import { respondJson } from '../http/respond.js';
import { readJsonBody } from '../http/json-body.js';
import { rawQuery } from '../http/raw-query.js';
import { listQueryParameters } from '../contracts/list-query-parameters.js';
import { alertExample, alertUpdateExample, collectionExample } from '../contracts/examples.js';
import { defineOperation } from './operation.js';

/** How an alert's level reads, said by the alerts and their settings. */
export const levels = '`level` as traps: 1 info, 2 notice, 3 warning, 4 error, 5 critical';

/** Every source with what raises and clears it and its default level, as a Markdown list. */
const sourceList = Object.entries(alertSourceCatalogue)
  .map(([source, { level, description }]) => `- \`${source}\` (level ${level} by default): ${description}.`)
  .join('\n');

const lifecycle = `An alert is a condition, not an event: it is raised when the condition starts (\`raised_at\`), updated while it lasts (\`last_seen_at\`, \`message\`; never a second alert for the same source and resource), and cleared when it ends (\`cleared_at\`; null while open). Each raise and each clear is also sent to the SNMP trap targets (\`dmsAlertRaised\`, \`dmsAlertCleared\`) at the alert's level, filtered by each target's severity band. ${levels}, from the source's setting when it was raised or last seen. Cleared alerts are purged after \`alert_retention_days\` (see the settings).`;

/** `/alerts` (docs/decisions/091-alerts.md): what dms keeps watch on, as TrueNAS's alerts. */
export const alertOperations = [
  defineOperation({
    operationId: 'listAlerts',
    sdkSample: `// The open alerts no one has dismissed yet, newest first:
const { count, alerts } = await dms.alerts.list({
  filter: { cleared_at: isNull(), dismissed_at: isNull() },
});
for (const alert of alerts) console.log(alert.level, alert.source, alert.message);`,
    handle: async (c, core) => respondJson(c, await core.alerts.list(c.get('principal'), rawQuery(c))),
    method: 'get',
    path: '/alerts',
    tag: 'alerts',
    summary: 'List alerts',
    description: `One page of alerts and \`count\`, newest first (\`raised_at\` descending) unless \`sort_by\` says otherwise. \`cleared_at=null\` lists the open ones, \`cleared_at=null&dismissed_at=null\` those no one has seen yet. Takes \`limit\`/\`offset\` or \`page\`/\`per_page\`, \`sort_by\` and filters (see *Lists* in the introduction) on \`id\`, \`source\`, \`level\`, \`resource_type\`, \`resource_id\`, \`raised_at\`, \`last_seen_at\`, \`cleared_at\` and \`dismissed_at\` (times ISO 8601 UTC, with the compare operators). An alert about an API key (\`resource.type\` \`api_keys\`: its name, last four characters and expiry) is listed only to admins and to the key's owner (the user whose key tree holds it) and their keys; to anyone else it is neither listed nor counted, and \`GET /alerts/{alert_id}\` answers 404. ${lifecycle}\n\nSources:\n\n${sourceList}`,
    scope: { controller: 'alerts', action: 'index' },
    query: listQueryParameters(alertListSpec),
    success: { status: 200, description: 'alert collection', schema: alertCollectionSchema, example: collectionExample('alerts', alertExample) },
  }),
  defineOperation({
    operationId: 'showAlert',
    sdkSample: `const alert = await dms.alerts.get(41);`,
    handle: async (c, core) => respondJson(c, await core.alerts.show(c.get('principal'), c.req.param('alert_id')!)),
    method: 'get',
    path: '/alerts/:alert_id',
    tag: 'alerts',
    summary: 'Show an alert',
    description: `One alert, by its numeric id; 404 for an alert about another user's API key unless the caller is an admin. ${lifecycle}`,
    scope: { controller: 'alerts', action: 'show' },
    success: { status: 200, description: 'alert', schema: alertSchema, example: alertExample },
  }),
  defineOperation({
    operationId: 'updateAlert',
    sdkSample: `const alert = await dms.alerts.dismiss(41);
// or take it back: await dms.alerts.undismiss(41)`,
    handle: async (c, core) => respondJson(c, await core.alerts.update(c.get('principal'), c.req.param('alert_id')!, await readJsonBody(c))),
    method: 'put',
    path: '/alerts/:alert_id',
    tag: 'alerts',
    summary: 'Dismiss an alert, or take a dismissal back',
    description:
      '`{"dismissed": true}` marks the alert seen by an operator (`dismissed_at`, kept if it was already dismissed); `{"dismissed": false}` takes that back. A dismissed alert that is still open clears by itself when its condition ends; a condition that comes back after a clear raises a new alert. Read-only fields of a GET body are ignored, so one can be sent back with `dismissed` added. Only an admin (or a key of an admin) or the owner of the alert’s resource (an API key’s owner; no other resource has one) may dismiss it: anyone else gets 403. Recorded in the audit log.',
    scope: { controller: 'alerts', action: 'update' },
    body: alertUpdateSchema,
    bodyExample: alertUpdateExample,
    success: { status: 200, description: 'alert', schema: alertSchema, example: { ...alertExample, dismissed_at: '2025-01-15T09:50:12.000Z' } },
  }),
];
