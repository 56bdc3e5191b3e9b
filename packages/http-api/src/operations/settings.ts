import { settingsSchema, settingsUpdateSchema } from '@dms/core';
import { settingsExample, settingsUpdateExample } from '../contracts/examples.js';
import { singletonOperations } from './crud-operations.js';

/** The server settings: JWT mode, job queue bounds, retention, the hosts share tests may reach. */
export const settingsOperations = singletonOperations({
  path: '/settings',
  tag: 'admin',
  controller: 'settings',
  noun: 'server settings (JWT mode)',
  schemas: { item: settingsSchema, update: settingsUpdateSchema },
  examples: { item: settingsExample, update: settingsUpdateExample },
  about:
    'JWT mode and token lifetime, job queue bounds, the hosts share tests may connect to, and how many days finished jobs (`job_retention_days`), audit events (`audit_retention_days`) and failed sign-ins (`failed_sign_in_retention_days`, 30 by default) are kept, and the lowest interval between the occurrences of a schedule (`schedule_min_interval_seconds`, 60 by default); single sign-on through an OpenID provider (`oidc_*`: issuer, client, write-only client secret, scopes, the claim and map that give a user its role, creation at first sign-in, the console button’s label). Admin only.',
  service: (core) => core.settings,
  operations: {
    show: { operationId: 'showSettings', sdkSample: `const settings = await dms.settings.get();` },
    update: { operationId: 'updateSettings', sdkSample: `const settings = await dms.settings.update({ jwt_enabled: true });` },
  },
});
