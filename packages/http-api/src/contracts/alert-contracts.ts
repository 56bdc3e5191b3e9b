import {
  alertCollectionSchema,
  alertListSpec,
  alertSchema,
  alertSettingCollectionSchema,
  alertSettingSchema,
  alertSettingUpdateSchema,
  alertSourceCatalogue,
  alertUpdateSchema,
} from '@dms/core';
import { listQueryParameters } from './list-query-parameters.js';
import { defineContract, type RouteContract } from './route-contract.js';
import { alertExample, alertSettingExample, alertSettingUpdateExample, alertUpdateExample, collectionExample } from './examples.js';

const levels = '`level` as traps: 1 info, 2 notice, 3 warning, 4 error, 5 critical';

/** Every source with what raises and clears it and its default level, as a Markdown list. */
const sourceList = Object.entries(alertSourceCatalogue)
  .map(([source, { level, description }]) => `- \`${source}\` (level ${level} by default): ${description}.`)
  .join('\n');

const lifecycle = `An alert is a condition, not an event: it is raised when the condition starts (\`raised_at\`), updated while it lasts (\`last_seen_at\`, \`message\`; never a second alert for the same source and resource), and cleared when it ends (\`cleared_at\`; null while open). Each raise and each clear is also sent to the SNMP trap targets (\`dmsAlertRaised\`, \`dmsAlertCleared\`) at the alert's level, filtered by each target's severity band. ${levels}, from the source's setting when it was raised or last seen. Cleared alerts are purged after \`alert_retention_days\` (see the settings).`;

/** `/alerts` and `/alert_settings` (docs/decisions/091-alerts.md): what dms keeps watch on, as TrueNAS's alerts. */
export const alertContracts: readonly RouteContract[] = [
  defineContract({
    method: 'get',
    path: '/alerts',
    tag: 'alerts',
    summary: 'List alerts',
    description: `One page of alerts and \`count\`, newest first (\`raised_at\` descending) unless \`sort_by\` says otherwise. \`cleared_at=null\` lists the open ones, \`cleared_at=null&dismissed_at=null\` those no one has seen yet. Takes \`limit\`/\`offset\` or \`page\`/\`per_page\`, \`sort_by\` and filters (see *Lists* in the introduction) on \`id\`, \`source\`, \`level\`, \`resource_type\`, \`resource_id\`, \`raised_at\`, \`last_seen_at\`, \`cleared_at\` and \`dismissed_at\` (times ISO 8601 UTC, with the compare operators). An alert about an API key (\`resource.type\` \`api_keys\`: its name, last four characters and expiry) is listed only to admins and to the key's owner (the user whose key tree holds it) and their keys; to anyone else it is neither listed nor counted, and \`GET /alerts/{alert_id}\` answers 404. ${lifecycle}\n\nSources:\n\n${sourceList}`,
    scope: { controller: 'alerts', action: 'index' },
    query: listQueryParameters(alertListSpec),
    success: { status: 200, description: 'alert collection', schema: alertCollectionSchema, example: collectionExample('alerts', alertExample) },
  }),
  defineContract({
    method: 'get',
    path: '/alerts/:alert_id',
    tag: 'alerts',
    summary: 'Show an alert',
    description: `One alert, by its numeric id; 404 for an alert about another user's API key unless the caller is an admin. ${lifecycle}`,
    scope: { controller: 'alerts', action: 'show' },
    success: { status: 200, description: 'alert', schema: alertSchema, example: alertExample },
  }),
  defineContract({
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
  defineContract({
    method: 'get',
    path: '/alert_settings',
    tag: 'alerts',
    summary: 'List alert settings',
    description: `One row per alert source, in a fixed order: whether it raises alerts (\`enabled\`), at which \`level\`, and what it watches (\`description\`); a source never changed shows its default. ${levels}. \`count\` is the number of sources; the list takes no parameters.`,
    scope: { controller: 'alert_settings', action: 'index' },
    success: {
      status: 200,
      description: 'alert setting collection',
      schema: alertSettingCollectionSchema,
      example: collectionExample('alert_settings', alertSettingExample),
    },
  }),
  defineContract({
    method: 'put',
    path: '/alert_settings/:source',
    tag: 'alerts',
    summary: 'Update an alert setting (partial)',
    description: `Admin only. Changes \`enabled\` and \`level\` (1–5) of one source, named in the path (an unknown source is 404, its message listing the sources); \`source\` and \`description\` are read-only. A new level applies to alerts raised from then on, and to an open alert when its condition is next seen. Turning a source off clears its open alerts (each clear sent as a trap) and it raises none until it is turned on again. Recorded in the audit log.`,
    scope: { controller: 'alert_settings', action: 'update' },
    body: alertSettingUpdateSchema,
    bodyExample: alertSettingUpdateExample,
    success: { status: 200, description: 'alert setting', schema: alertSettingSchema, example: { ...alertSettingExample, level: 5 } },
  }),
];
