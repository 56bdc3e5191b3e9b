import { expect } from 'vitest';
import { systemPrincipal } from '@dms/core';
import type { OperationId } from '../operations/rest-operations.js';
import type { Operation } from '../operations/operation.js';
import { adminPassword, adminUsername, type TestApp } from './test-app.js';
import {
  addApiKey,
  addScans,
  addChannel,
  addSilence,
  addCorsRule,
  addRole,
  roleName,
  addSchedule,
  addUser,
  addTotpUser,
  addSession,
  dailyRule,
  raiseAlert,
  readJson,
  seedResourceWorld,
  unique,
  type ResourceWorld,
} from './fixtures.js';

/**
 * The valid request of every operation, made in a seeded world: the suites that walk the route
 * operations (test/api-conventions/documented-statuses.test.ts, every-change-audited.test.ts) send it
 * and what they derive from it. A new operation needs a row here (the type says so).
 */
export interface OperationRequest {
  /** The path parameters. */
  params?(f: ResourceWorld): Record<string, string | number>;
  /** The query string, without `?`. */
  query?(f: ResourceWorld): string;
  /** The body; made once per request, so a replay sends the same. */
  body?(f: ResourceWorld): unknown;
  /** Fixtures the request needs beyond the common ones, made before it is sent. */
  prepare?(t: TestApp, f: ResourceWorld): Promise<Partial<ResourceWorld>>;
}

/** A network NAS on TEST-NET-2: nothing connects to it, as the job engine is never started. */
export const unreachableNasHost = '198.51.100.20';

export const need = <T>(value: T | undefined, what: string): T => {
  if (value === undefined) throw new Error(`this row's fixture has no ${what}: give it a prepare`);
  return value;
};

const withUser = async (t: TestApp): Promise<Partial<ResourceWorld>> => ({ user: await addUser(t) });
const withCorsRule = async (t: TestApp): Promise<Partial<ResourceWorld>> => ({ corsRule: await addCorsRule(t) });
const withRole = async (t: TestApp): Promise<Partial<ResourceWorld>> => ({ role: await addRole(t) });
const withApiKey = async (t: TestApp): Promise<Partial<ResourceWorld>> => ({ apiKey: await addApiKey(t, ['pools/index']) });
const withSchedule = async (t: TestApp, f: ResourceWorld): Promise<Partial<ResourceWorld>> => ({ schedule: await addSchedule(t, [f.share.id]) });
const withAlert = async (t: TestApp, f: ResourceWorld): Promise<Partial<ResourceWorld>> => ({ alert: await raiseAlert(t, f.share) });
const withScans = async (t: TestApp, f: ResourceWorld): Promise<Partial<ResourceWorld>> => ({ scans: await addScans(t, f.share) });
const withChannel = async (t: TestApp): Promise<Partial<ResourceWorld>> => ({ channel: await addChannel(t) });
const withSilence = async (t: TestApp): Promise<Partial<ResourceWorld>> => ({ silence: await addSilence(t) });
const silenceRef = (f: ResourceWorld) => ({ silence_id: need(f.silence, 'silence').id });
const channelRef = (f: ResourceWorld) => ({ notification_channel_id: need(f.channel, 'channel').id });
const scheduleRef = (f: ResourceWorld) => ({ schedule_id: need(f.schedule, 'schedule').id });
const alertRef = (f: ResourceWorld) => ({ alert_id: need(f.alert, 'alert').id });

/** Queues a job through REST (the engine is not started, so it stays queued) and keeps its id. */
const withJob =
  (path: (f: ResourceWorld) => string, body?: unknown) =>
  async (t: TestApp, f: ResourceWorld): Promise<Partial<ResourceWorld>> => {
    const res = await t.call('PUT', `/api/v2${path(f)}`, { auth: t.basic, ...(body === undefined ? {} : { body }) });
    expect(res.status, await res.clone().text()).toBe(202);
    return { jobId: (await readJson<{ job_id: string }>(res)).job_id };
  };

const unsavedShare = () => ({ name: unique('probe'), path: '/export/probe' });
const nasRef = (f: ResourceWorld) => ({ nas_id: f.nas.id });
const shareUnderNas = (f: ResourceWorld) => ({ nas_id: f.nas.id, nas_share_id: f.share.id });
const shareRef = (f: ResourceWorld) => ({ nas_share_id: f.share.id });
const shareInPool = (f: ResourceWorld) => ({ pool_id: f.pool.id, nas_share_id: f.share.id });
export const jobQuery = (f: ResourceWorld) => `job_id=${need(f.jobId, 'job')}`;
/** Moves the share elsewhere on its NAS: a change of target, which a narrowed allow-list checks too. */
export const shareUpdate = () => ({ path: `/export/${unique('moved')}` });
let ttl = 600;
let level = 3;

export const operationRequests: Record<OperationId, OperationRequest> = {
  testUnsavedNasShare: { params: nasRef, body: unsavedShare },
  showUnsavedNasShareTest: { params: nasRef, query: jobQuery, prepare: withJob((f) => `/nas/${f.nas.id}/nas_shares/-/test`, unsavedShare()) },
  testNasShare: { params: shareRef },
  showNasShareTest: { params: shareRef, query: jobQuery, prepare: withJob((f) => `/nas_shares/${f.share.id}/test`) },
  scanNasShare: { params: shareRef },
  showNasShareScan: { params: shareRef, query: jobQuery, prepare: withJob((f) => `/nas_shares/${f.share.id}/scan`) },
  listJobs: { query: () => 'status=queued&created_at=%3E%3D2020-01-01T00:00:00Z&sort_by=created_at:desc&limit=5' },
  showJob: { params: (f) => ({ job_id: need(f.jobId, 'job') }), prepare: withJob((f) => `/nas_shares/${f.share.id}/scan`) },
  listSchedules: { query: () => 'enabled=true&sort_by=next&limit=5' },
  createSchedule: { body: (f) => ({ name: unique('new-schedule'), action: 'scan', nas_share_ids: [f.share.id], rrule: dailyRule }) },
  showSchedule: { params: scheduleRef, prepare: withSchedule },
  updateSchedule: { params: scheduleRef, prepare: withSchedule, body: () => ({ name: unique('renamed-schedule'), enabled: false }) },
  deleteSchedule: { params: scheduleRef, prepare: withSchedule },
  listNotificationChannels: { query: () => 'type=slack&limit=5' },
  createNotificationChannel: { body: () => ({ name: unique('new-channel'), type: 'webhook', settings: { url: 'http://127.0.0.1:4/hook' } }) },
  showNotificationChannel: { params: channelRef, prepare: withChannel },
  updateNotificationChannel: { params: channelRef, prepare: withChannel, body: () => ({ min_level: 4 }) },
  deleteNotificationChannel: { params: channelRef, prepare: withChannel },
  testNotificationChannel: { params: channelRef, prepare: withChannel },
  listNotificationDeliveries: { params: channelRef, prepare: withChannel, query: () => 'outcome=delivered' },
  listSilences: { query: () => 'until_cleared=true&limit=5' },
  createSilence: {
    body: () => ({ matchers: { source: 'scan_failed', resource_id: '999998' }, ends_at: '2099-01-01T00:00:00Z', reason: unique('new-silence') }),
  },
  showSilence: { params: silenceRef, prepare: withSilence },
  updateSilence: { params: silenceRef, prepare: withSilence, body: () => ({ reason: unique('renamed-silence') }) },
  deleteSilence: { params: silenceRef, prepare: withSilence },
  listAlerts: { query: () => 'cleared_at=null&sort_by=raised_at:desc&limit=5' },
  showAlert: { params: alertRef, prepare: withAlert },
  updateAlert: { params: alertRef, prepare: withAlert, body: () => ({ dismissed: true }) },
  listAlertSettings: {},
  updateAlertSetting: { params: () => ({ source: 'scan_failed' }), body: () => ({ enabled: true, level: (level = (level % 5) + 1) }) },
  listNasShareScans: { params: shareRef, query: () => 'sort_by=at:desc&limit=5' },
  showCapacity: { query: () => 'days=7' },
  compareNasShareScans: { params: shareRef, query: (f) => `from=${need(f.scans, 'scans').from}&to=${need(f.scans, 'scans').to}`, prepare: withScans },
  showNasShareScanDetail: { params: (f) => ({ ...shareRef(f), scan_id: need(f.scans, 'scans').to }), prepare: withScans },
  showStatisticsReport: { query: () => 'days=7' },
  listNasSharesByNas: { params: nasRef, query: () => 'name=~share%25&sort_by=name:desc' },
  createNasShare: { params: nasRef, body: () => ({ name: unique('new'), path: '/export/new', password: 'pw-new' }) },
  showNasShareByNas: { params: shareUnderNas },
  updateNasShareByNas: { params: shareUnderNas, body: shareUpdate },
  deleteNasShareByNas: { params: shareUnderNas },
  listNasShares: { query: () => 'limit=5' },
  showNasShare: { params: shareRef },
  updateNasShare: { params: shareRef, body: shareUpdate },
  deleteNasShare: { params: shareRef },
  listNasSharesByPool: { params: (f) => ({ pool_id: f.pool.id }) },
  showNasShareByPool: { params: shareInPool },
  updateNasShareByPool: { params: shareInPool, body: shareUpdate },
  deleteNasShareByPool: { params: shareInPool },
  listNas: { query: () => 'page=1&per_page=5' },
  createNas: { body: () => ({ name: unique('new-nas'), host: '198.51.100.30', type: 'nfs_v4' }) },
  showNas: { params: nasRef },
  updateNas: { params: nasRef, body: () => ({ comment: 'moved', host: '198.51.100.31' }) },
  deleteNas: { params: (f) => ({ nas_id: f.emptyNas.id }) },
  listPools: {},
  createPool: { body: () => ({ name: unique('new-pool') }) },
  showPool: { params: (f) => ({ pool_id: f.pool.id }) },
  updatePool: { params: (f) => ({ pool_id: f.pool.id }), body: (f) => ({ comment: 'updated', nas_share_ids: [f.share.id] }) },
  deletePool: { params: (f) => ({ pool_id: f.pool.id }) },
  listSnmpTraps: {},
  createSnmpTrap: { body: () => ({ manager: '198.51.100.7' }) },
  showSnmpTrap: { params: (f) => ({ snmp_trap_id: f.trap.snmp_trap_id }) },
  updateSnmpTrap: { params: (f) => ({ snmp_trap_id: f.trap.snmp_trap_id }), body: () => ({ community: 'changed' }) },
  deleteSnmpTrap: { params: (f) => ({ snmp_trap_id: f.trap.snmp_trap_id }) },
  // createTestApp runs no trap sender: this answers 503, as with the notifier down.
  testSnmpTrap: { params: (f) => ({ snmp_trap_id: f.trap.snmp_trap_id }) },
  showSnmpServerConfiguration: {},
  updateSnmpServerConfiguration: { body: () => ({ location: unique('room') }) },
  login: {
    body: () => ({ username: adminUsername, password: adminPassword }),
    // JWT mode on, so that the body is checked (JWT mode off is 403 whatever the body says).
    prepare: async (t) => {
      await t.core.settings.update(systemPrincipal, { jwt_enabled: true });
      return {};
    },
  },
  // Single sign-on is off in the seeded world: both answer 403 (test/routes/oidc-routes.test.ts signs in for real).
  startOidcLogin: {},
  finishOidcLogin: { query: () => `state=${'s'.repeat(43)}&code=a-code` },
  showCurrentApiKey: {},
  showTotp: {},
  enrollTotp: {},
  // The admin's Basic credential must go on working: a code that is never right (409 not enrolled, or 422).
  confirmTotp: { body: () => ({ totp_code: '000000' }) },
  disableTotp: { body: () => ({ totp_code: '000000' }) },
  resetUserTotp: { params: (f) => ({ user_id: need(f.user, 'user').id }), prepare: async (t) => ({ user: await addTotpUser(t) }) },
  listSessions: {},
  deleteSession: {
    params: (f) => ({ session_id: need(f.sessionId, 'session') }),
    prepare: async (t) => ({ sessionId: (await addSession(t)).sessionId }),
  },
  showSettings: {},
  updateSettings: { body: () => ({ jwt_ttl_seconds: (ttl += 1) }) },
  listApiKeys: {},
  createApiKey: { body: () => ({ name: unique('granted'), api_key_scopes: [{ controller: 'pools', action: 'index' }] }) },
  showApiKey: { params: (f) => ({ api_key_id: need(f.apiKey, 'API key').id }), prepare: withApiKey },
  updateApiKey: { params: (f) => ({ api_key_id: need(f.apiKey, 'API key').id }), prepare: withApiKey, body: () => ({ name: unique('renamed') }) },
  deleteApiKey: { params: (f) => ({ api_key_id: need(f.apiKey, 'API key').id }), prepare: withApiKey },
  listUsers: {},
  createUser: { body: () => ({ username: unique('new-user'), password: 'new-user-password' }) },
  showUser: { params: (f) => ({ user_id: need(f.user, 'user').id }), prepare: withUser },
  // Not `admin: true`: a second admin would let the refusals of the last admin through.
  updateUser: { params: (f) => ({ user_id: need(f.user, 'user').id }), prepare: withUser, body: () => ({ admin: false }) },
  deleteUser: { params: (f) => ({ user_id: need(f.user, 'user').id }), prepare: withUser },
  listRoles: {},
  createRole: { body: () => ({ name: roleName(), scopes: [{ controller: 'nas', action: 'index' }] }) },
  showRole: { params: () => ({ role_name: 'viewer' }) },
  updateRole: { params: (f) => ({ role_name: need(f.role, 'role') }), prepare: withRole, body: () => ({ description: 'changed' }) },
  deleteRole: { params: (f) => ({ role_name: need(f.role, 'role') }), prepare: withRole },
  listCorsRules: {},
  createCorsRule: { body: () => ({ origins: [`https://${unique('app')}.example.com`], path: '/api/v2/pools*', methods: ['GET'] }) },
  showCorsRule: { params: (f) => ({ cors_rule_id: need(f.corsRule, 'CORS rule').id }), prepare: withCorsRule },
  updateCorsRule: {
    params: (f) => ({ cors_rule_id: need(f.corsRule, 'CORS rule').id }),
    prepare: withCorsRule,
    body: () => ({ origins: [`https://${unique('app')}.example.com`] }),
  },
  deleteCorsRule: { params: (f) => ({ cors_rule_id: need(f.corsRule, 'CORS rule').id }), prepare: withCorsRule },
  listAuditEvents: { query: () => 'action=update&via=rest&sort_by=at:desc&per_page=5' },
};

/**
 * A world for one operation's request: `nas` a network NAS nothing connects to, whose share
 * (with a password) is in `pool`, and what the row's `prepare` adds.
 */
export async function seedOperationWorld(t: TestApp, request: OperationRequest): Promise<ResourceWorld> {
  const f = await seedResourceWorld(t, { nas: { type: 'nfs_v4', host: unreachableNasHost }, share: { path: '/export/data', password: 'pw-probe' } });
  return { ...f, ...(await request.prepare?.(t, f)) };
}

/** The contract's path below /api/v2 with `params` in place, each encoded. */
export function operationPath(contract: Operation, params: Record<string, string | number>): string {
  return `/api/v2${contract.path.replace(/:([A-Za-z_]+)/g, (_, name: string) => encodeURIComponent(String(need(params[name], `path parameter ${name}`))))}`;
}
