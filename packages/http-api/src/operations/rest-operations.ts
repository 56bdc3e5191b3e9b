import { shareJobOperations } from './share-jobs.js';
import { jobOperations } from './jobs.js';
import { scheduleOperations } from './schedules.js';
import { alertOperations } from './alerts.js';
import { alertSettingOperations } from './alert-settings.js';
import { notificationChannelOperations } from './notification-channels.js';
import { silenceOperations } from './silences.js';
import { nasShareScanOperations } from './nas-share-scans.js';
import { nasShareScanAnalyticsOperations } from './nas-share-scans-analytics.js';
import { statisticsOperations } from './statistics.js';
import { statisticsReportOperations } from './statistics-report.js';
import { nasShareOperations } from './nas-shares.js';
import { nasOperations } from './nas.js';
import { poolOperations } from './pools.js';
import { trapOperations } from './traps.js';
import { snmpConfigurationOperations } from './snmp-configuration.js';
import { authOperations } from './auth.js';
import { oidcOperations } from './oidc.js';
import { totpOperations } from './totp.js';
import { sessionOperations } from './sessions.js';
import { settingsOperations } from './settings.js';
import { apiKeyOperations } from './api-keys.js';
import { userOperations } from './users.js';
import { roleOperations } from './roles.js';
import { corsRuleOperations } from './cors-rules.js';
import { auditEventOperations } from './audit-events.js';

/**
 * Every operation of /api/v2, in the order the app registers them and the OpenAPI document lists
 * them: where two patterns match one request, the first wins (`/api_keys/current`, in auth.ts,
 * comes before `/api_keys/:api_key_id`).
 */
export const restOperations = [
  ...shareJobOperations,
  ...jobOperations,
  ...scheduleOperations,
  ...alertOperations,
  ...alertSettingOperations,
  ...notificationChannelOperations,
  ...silenceOperations,
  ...nasShareScanOperations,
  ...nasShareScanAnalyticsOperations,
  ...statisticsOperations,
  ...statisticsReportOperations,
  ...nasShareOperations,
  ...nasOperations,
  ...poolOperations,
  ...trapOperations,
  ...snmpConfigurationOperations,
  ...authOperations,
  ...oidcOperations,
  ...totpOperations,
  ...sessionOperations,
  ...settingsOperations,
  ...apiKeyOperations,
  ...userOperations,
  ...roleOperations,
  ...corsRuleOperations,
  ...auditEventOperations,
] as const;

/** The id of every operation: the SDK names its methods after them (operations/operation-ids.test.ts). */
export type OperationId = (typeof restOperations)[number]['operationId'];

/** One of them, its id among those above. */
export type RestOperation = (typeof restOperations)[number];
