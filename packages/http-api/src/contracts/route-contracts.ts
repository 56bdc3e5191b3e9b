import type { RouteContract } from './route-contract.js';
import { shareJobContracts } from './share-job-contracts.js';
import { jobContracts } from './job-contracts.js';
import { shareContracts } from './share-contracts.js';
import { nasContracts } from './nas-contracts.js';
import { poolContracts } from './pool-contracts.js';
import { snmpContracts } from './snmp-contracts.js';
import { authContracts } from './auth-contracts.js';
import { adminContracts } from './admin-contracts.js';
import { auditEventContracts } from './audit-event-contracts.js';
import { scheduleContracts } from './schedule-contracts.js';
import { alertContracts } from './alert-contracts.js';
import { capacityContracts } from './capacity-contracts.js';

/**
 * Every operation of /api/v2, in the order the app registers them: where two patterns match
 * one request, the first wins (`/api_keys/current` comes before `/api_keys/:api_key_id`).
 */
export const routeContracts: readonly RouteContract[] = [
  ...shareJobContracts,
  ...jobContracts,
  ...scheduleContracts,
  ...alertContracts,
  ...capacityContracts,
  ...shareContracts,
  ...nasContracts,
  ...poolContracts,
  ...snmpContracts,
  ...authContracts,
  ...adminContracts,
  ...auditEventContracts,
];
