import { alertSettingCollectionSchema, alertSettingSchema, alertSettingUpdateSchema } from '@dms/core';
import { respondJson } from '../http/respond.js';
import { readJsonBody } from '../http/json-body.js';
import { alertSettingExample, alertSettingUpdateExample, collectionExample } from '../contracts/examples.js';
import { defineOperation } from './operation.js';
import { levels } from './alerts.js';

/** `/alert_settings` (docs/decisions/091-alerts.md): whether each alert source raises alerts, and at which level. */
export const alertSettingOperations = [
  defineOperation({
    operationId: 'listAlertSettings',
    sdkSample: `const { alert_settings } = await dms.alertSettings.list();`,
    handle: async (c, core) => respondJson(c, await core.alerts.settings(c.get('principal'))),
    method: 'get',
    path: '/alert_settings',
    tag: 'alerts',
    summary: 'List alert settings',
    description: `One row per alert source, in a fixed order: whether it raises alerts (\`enabled\`), at which \`level\`, and what it watches (\`description\`); a source never changed shows its default. \`raise_after_seconds\` and \`clear_after_seconds\` damp a flapping condition: it is raised only once it has lasted that long, cleared only once it has been gone that long (null \`raise_after_seconds\`: automatic, 0 except 300 for \`share_unreachable\` from a schedule running more often than every 5 minutes). ${levels}. \`count\` is the number of sources; the list takes no parameters.`,
    scope: { controller: 'alert_settings', action: 'index' },
    success: {
      status: 200,
      description: 'alert setting collection',
      schema: alertSettingCollectionSchema,
      example: collectionExample('alert_settings', alertSettingExample),
    },
  }),
  defineOperation({
    operationId: 'updateAlertSetting',
    sdkSample: `const setting = await dms.alertSettings.update('share_unreachable', { level: 5, raise_after_seconds: 600 });`,
    handle: async (c, core) => respondJson(c, await core.alerts.updateSetting(c.get('principal'), c.req.param('source')!, await readJsonBody(c))),
    method: 'put',
    path: '/alert_settings/:source',
    tag: 'alerts',
    summary: 'Update an alert setting (partial)',
    description: `Admin only. Changes \`enabled\`, \`level\` (1–5), \`raise_after_seconds\` (0–86400, or null: automatic) and \`clear_after_seconds\` (0–86400) of one source, named in the path (an unknown source is 404, its message listing the sources); \`source\` and \`description\` are read-only. A new level applies to alerts raised from then on, and to an open alert when its condition is next seen. Turning a source off clears its open alerts (each clear sent as a trap) and it raises none until it is turned on again. Recorded in the audit log.`,
    scope: { controller: 'alert_settings', action: 'update' },
    body: alertSettingUpdateSchema,
    bodyExample: alertSettingUpdateExample,
    success: { status: 200, description: 'alert setting', schema: alertSettingSchema, example: { ...alertSettingExample, level: 5, raise_after_seconds: 600 } },
  }),
];
