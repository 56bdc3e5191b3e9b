import { describe, expect, it } from 'vitest';
import { restOperations } from './rest-operations.js';

/**
 * The operation ids as released, by method and path (below /api/v2, Hono `:param` syntax). Each
 * operation declares its own id (operations/*.ts); the SDK names its methods after them, so a
 * change here is a breaking change of @dms/sdk, made on purpose.
 */
const releasedOperationIds = {
  // Spec endpoints 3 and 4, and the jobs of a saved share.
  'put /nas/:nas_id/nas_shares/-/test': 'testUnsavedNasShare',
  'get /nas/:nas_id/nas_shares/-/test': 'showUnsavedNasShareTest',
  'put /nas_shares/:nas_share_id/test': 'testNasShare',
  'get /nas_shares/:nas_share_id/test': 'showNasShareTest',
  'put /nas_shares/:nas_share_id/scan': 'scanNasShare',
  'get /nas_shares/:nas_share_id/scan': 'showNasShareScan',
  // Every job, wherever it was started.
  'get /jobs': 'listJobs',
  'get /jobs/:job_id': 'showJob',
  // Keeping watch: schedules, alerts and their settings, a share's scans, capacity.
  'get /schedules': 'listSchedules',
  'post /schedules': 'createSchedule',
  'get /schedules/:schedule_id': 'showSchedule',
  'put /schedules/:schedule_id': 'updateSchedule',
  'delete /schedules/:schedule_id': 'deleteSchedule',
  'get /alerts': 'listAlerts',
  'get /alerts/:alert_id': 'showAlert',
  'put /alerts/:alert_id': 'updateAlert',
  'get /alert_settings': 'listAlertSettings',
  'put /alert_settings/:source': 'updateAlertSetting',
  'get /nas_shares/:nas_share_id/scans': 'listNasShareScans',
  'get /statistics/capacity': 'showCapacity',
  'get /nas_shares/:nas_share_id/scans/compare': 'compareNasShareScans',
  'get /nas_shares/:nas_share_id/scans/:scan_id': 'showNasShareScanDetail',
  'get /statistics/report': 'showStatisticsReport',
  // Notification channels, a test message and the deliveries.
  'get /notification_channels': 'listNotificationChannels',
  'post /notification_channels': 'createNotificationChannel',
  'get /notification_channels/:notification_channel_id': 'showNotificationChannel',
  'put /notification_channels/:notification_channel_id': 'updateNotificationChannel',
  'delete /notification_channels/:notification_channel_id': 'deleteNotificationChannel',
  'post /notification_channels/:notification_channel_id/test': 'testNotificationChannel',
  'get /notification_channels/:notification_channel_id/deliveries': 'listNotificationDeliveries',
  // Silences.
  'get /silences': 'listSilences',
  'post /silences': 'createSilence',
  'get /silences/:silence_id': 'showSilence',
  'put /silences/:silence_id': 'updateSilence',
  'delete /silences/:silence_id': 'deleteSilence',
  // NAS shares under a NAS, everywhere, and in a pool.
  'get /nas/:nas_id/nas_shares': 'listNasSharesByNas',
  'post /nas/:nas_id/nas_shares': 'createNasShare',
  'get /nas/:nas_id/nas_shares/:nas_share_id': 'showNasShareByNas',
  'put /nas/:nas_id/nas_shares/:nas_share_id': 'updateNasShareByNas',
  'delete /nas/:nas_id/nas_shares/:nas_share_id': 'deleteNasShareByNas',
  'get /nas_shares': 'listNasShares',
  'get /nas_shares/:nas_share_id': 'showNasShare',
  'put /nas_shares/:nas_share_id': 'updateNasShare',
  'delete /nas_shares/:nas_share_id': 'deleteNasShare',
  'get /pools/:pool_id/nas_shares': 'listNasSharesByPool',
  'get /pools/:pool_id/nas_shares/:nas_share_id': 'showNasShareByPool',
  'put /pools/:pool_id/nas_shares/:nas_share_id': 'updateNasShareByPool',
  'delete /pools/:pool_id/nas_shares/:nas_share_id': 'deleteNasShareByPool',
  // NAS and pools.
  'get /nas': 'listNas',
  'post /nas': 'createNas',
  'get /nas/:nas_id': 'showNas',
  'put /nas/:nas_id': 'updateNas',
  'delete /nas/:nas_id': 'deleteNas',
  'get /pools': 'listPools',
  'post /pools': 'createPool',
  'get /pools/:pool_id': 'showPool',
  'put /pools/:pool_id': 'updatePool',
  'delete /pools/:pool_id': 'deletePool',
  // SNMP trap targets and the SNMP server configuration.
  'get /snmp/traps': 'listSnmpTraps',
  'post /snmp/traps': 'createSnmpTrap',
  'get /snmp/traps/:snmp_trap_id': 'showSnmpTrap',
  'put /snmp/traps/:snmp_trap_id': 'updateSnmpTrap',
  'delete /snmp/traps/:snmp_trap_id': 'deleteSnmpTrap',
  'post /snmp/traps/:snmp_trap_id/test': 'testSnmpTrap',
  'get /snmp/server_configuration': 'showSnmpServerConfiguration',
  'put /snmp/server_configuration': 'updateSnmpServerConfiguration',
  // Authentication and administration.
  'post /auth/login': 'login',
  'get /api_keys/current': 'showCurrentApiKey',
  'get /auth/totp': 'showTotp',
  'post /auth/totp': 'enrollTotp',
  'post /auth/totp/confirm': 'confirmTotp',
  'post /auth/totp/disable': 'disableTotp',
  'delete /users/:user_id/totp': 'resetUserTotp',
  'get /sessions': 'listSessions',
  'delete /sessions/:session_id': 'deleteSession',
  'get /settings': 'showSettings',
  'put /settings': 'updateSettings',
  'get /api_keys': 'listApiKeys',
  'post /api_keys': 'createApiKey',
  'get /api_keys/:api_key_id': 'showApiKey',
  'put /api_keys/:api_key_id': 'updateApiKey',
  'delete /api_keys/:api_key_id': 'deleteApiKey',
  'get /users': 'listUsers',
  'post /users': 'createUser',
  'get /users/:user_id': 'showUser',
  'put /users/:user_id': 'updateUser',
  'delete /users/:user_id': 'deleteUser',
  'get /roles': 'listRoles',
  'post /roles': 'createRole',
  'get /roles/:role_name': 'showRole',
  'put /roles/:role_name': 'updateRole',
  'delete /roles/:role_name': 'deleteRole',
  'get /cors_rules': 'listCorsRules',
  'post /cors_rules': 'createCorsRule',
  'get /cors_rules/:cors_rule_id': 'showCorsRule',
  'put /cors_rules/:cors_rule_id': 'updateCorsRule',
  'delete /cors_rules/:cors_rule_id': 'deleteCorsRule',
  'get /audit_events': 'listAuditEvents',
  'get /auth/oidc/callback': 'finishOidcLogin',
  'get /auth/oidc/login': 'startOidcLogin',
} as const;

describe('operation ids', () => {
  it('every operation keeps the id the SDK was generated from, and no two share one', () => {
    const declared = restOperations.map(({ method, path, operationId }) => [`${method} ${path}`, operationId] as const);
    expect(Object.fromEntries(declared)).toEqual(releasedOperationIds);
    expect(new Set(declared.map(([key]) => key)).size).toBe(declared.length);
    expect(new Set(declared.map(([, id]) => id)).size).toBe(declared.length);
  });
});
