import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { systemPrincipal } from '@dms/core';
import { createTestApp, type TestApp } from '../../src/testing/test-app.js';
import {
  addApiKey,
  addCorsRule,
  addNas,
  addPool,
  addSchedule,
  addShare,
  addTrap,
  addUser,
  dailyRule,
  expectModelError,
  joinPool,
  raiseAlert,
  readJson,
  unique,
  type ApiKeyView,
  type CorsRule,
  type Nas,
  type NasShare,
  type Pool,
  type Schedule,
  type Trap,
  type User,
} from '../../src/testing/fixtures.js';

/**
 * docs/decisions/023-strict-bodies.md and issue "API contract: strict, consistent and self-explaining": on every
 * write endpoint an unknown field is 422 `unknown` naming what was meant, read-only fields
 * are ignored so that a GET body can be PUT back, and every 422 names the rule it broke.
 */
let t: TestApp;
let nas: Nas;
let pool: Pool;
let share: NasShare;
let trap: Trap;
let user: User;
let apiKey: ApiKeyView;
let corsRule: CorsRule;
let schedule: Schedule;
let alertId: number;

beforeAll(async () => {
  t = await createTestApp();
  nas = await addNas(t);
  pool = await addPool(t);
  share = await addShare(t, nas, { path: 'strict/base', username: 'svc', password: 'pw-1' });
  await joinPool(t, pool, [share.id]);
  trap = await addTrap(t);
  user = await addUser(t);
  apiKey = await addApiKey(t, ['nas/index']);
  corsRule = await addCorsRule(t);
  schedule = await addSchedule(t, [share.id]);
  alertId = (await raiseAlert(t, share)).id;
});
afterAll(() => t.close());

const api = (path: string) => `/api/v2${path}`;

interface WriteEndpoint {
  method: 'POST' | 'PUT';
  /** As the API reference names it, e.g. `PUT /nas/{nas_id}`. */
  name: string;
  path: () => string;
  /** Where a PUT's record is read back; absent for creates and for the share test. */
  show?: () => string;
  /** A body the endpoint accepts. */
  valid: () => Record<string, unknown>;
  success: 200 | 201 | 202;
  /** The fields the body takes, as the "known fields" message lists them. */
  known: string;
  /** A typo and the field it should be taken for. */
  typo: readonly [string, string];
  /** Read-only fields, with values unlike the stored ones. */
  readOnly: Record<string, unknown>;
  /** A body patch that breaks a type or enum rule, and the exact message naming it. */
  rules: ReadonlyArray<readonly [Record<string, unknown>, string]>;
  /** Fields a PUT that changes nothing still changes, left out when the record is compared before and after. */
  touched?: readonly string[];
}

const nasTypes = 'smb_v1, smb_v2_1, smb_v3, nfs_v3, nfs_v4, storenext_v5, local';
const poolTypes = 'active_archive, offline_archive, data_exchange, scratch, data_enrichment, primary';
const shareFields = 'name, path, options, username, password, capacity_warning_percent, capacity_critical_percent';
const shareReadOnly = {
  id: 987654,
  nas_id: 987654,
  pool_id: 987654,
  file_count: 42,
  file_size_sum: 4242,
  health: 'ok',
  last_tested_at: '2000-01-01T00:00:00.000Z',
  last_test_status: 'completed',
  last_scanned_at: '2000-01-01T00:00:00.000Z',
  capacity_bytes: 1000,
  free_bytes: 10,
  used_percent: 99,
  capacity_checked_at: '2000-01-01T00:00:00.000Z',
  days_until_full: 1,
  capacity_forecast: { samples: 9, days: 9, growth_bytes_per_day: 9, full_at: null },
};
const shareRules = [
  [{ options: ['ro'] }, 'options must be a string or null, got an array'],
  [{ name: true }, 'name must be a string, got true'],
  [{ path: '' }, "path can't be blank"],
] as const;
const scheduleFields = 'name, action, rrule, enabled, nas_share_ids, pool_id, nas_id, all_shares';
const scheduleReadOnly = {
  id: 987654,
  next: '2000-01-01T00:00:00.000Z',
  last_run_at: '2000-01-01T00:00:00.000Z',
  missed_count: 42,
  skipped_count: 43,
  not_started_count: 44,
  creator_user_id: 45,
  creator_key_id: 46,
  retry_at: '2000-01-01T00:00:00.000Z',
  last_error: 'read-only',
  created_at: '2000-01-01T00:00:00.000Z',
  updated_at: '2000-01-01T00:00:00.000Z',
};
const scheduleRules = [
  [{ action: 'walk' }, 'action must be one of test, scan'],
  [{ enabled: 'yes' }, 'enabled must be true or false, got a string'],
  [{ rrule: 'FREQ=DAILY' }, 'rrule must hold a DTSTART line and an RRULE line, e.g. "DTSTART:20261125T120000Z\\nRRULE:FREQ=HOURLY"'],
  [{ rrule: 'DTSTART:20250101T000000Z\nRRULE:FREQ=DAILY;BYMINUTE=60' }, 'rrule RRULE: BYMINUTE takes 0 to 59, not 60'],
  [{ nas_share_ids: [] }, 'nas_share_ids must have at least 1 item'],
] as const;
const trapRules = [
  [{ version: 'v4' }, 'version must be one of v1, v2c, v3'],
  [{ notify_type: 'acknowledged' }, 'notify_type must be one of trap, inform'],
  [{ auth_protocol: 'MD5' }, 'auth_protocol is refused: MD5 is broken; use SHA-256 or SHA-512 (SHA-1 is allowed)'],
  [{ priv_protocol: 'DES' }, 'priv_protocol is refused: DES is broken; use AES-128 or AES-256'],
  [{ activation: 2 }, 'activation must be one of 0, 1'],
  [{ severity_low: 9 }, 'severity_low must be between 1 and 5'],
  [{ severity_high: '3' }, 'severity_high must be an integer, got a string'],
  [{ community: '' }, "community can't be blank"],
] as const;
const apiKeyRules = [
  [{ api_key_scopes: ['nas/index'] }, 'api_key_scopes[0] must be {"controller": "...", "action": "..."}, got a string'],
  [{ api_key_scopes: [{ controller: 'NAS', action: 'index' }] }, 'api_key_scopes[0].controller must be * or a lower-case name'],
  [{ expires_at: 'tomorrow' }, 'expires_at must be a date and time with a time zone, such as 2030-01-31T12:00:00Z'],
] as const;
const corsRules = [
  [{ methods: ['TRACE'] }, 'methods[0] must be one of GET, POST, PUT, DELETE'],
  [{ origins: 'https://a.example' }, 'origins must be an array, got a string'],
  [{ origins: ['null'] }, 'origins[0] must not be null: sandboxed frames and file: pages all send that origin'],
] as const;

/** The update of a share: the same body in each of its three route families. */
function sharePut(name: string, path: () => string): WriteEndpoint {
  return {
    method: 'PUT',
    name,
    path: () => api(path()),
    show: () => api(path()),
    valid: () => ({}),
    success: 200,
    known: shareFields,
    typo: ['usename', 'username'],
    readOnly: shareReadOnly,
    rules: [...shareRules, [{ file_cont: 3 }, `unknown field 'file_cont'; did you mean 'file_count'? (file_count is set by scans: PUT /nas_shares/{id}/scan)`]],
  };
}

const endpoints: WriteEndpoint[] = [
  {
    method: 'POST',
    name: 'POST /nas',
    path: () => api('/nas'),
    valid: () => ({ name: unique('strict-nas'), host: 'nas.example', type: 'local' }),
    success: 201,
    known: 'name, host, type, comment, price',
    typo: ['nmae', 'name'],
    readOnly: { id: 987654 },
    rules: [
      [{ type: 'ntfs' }, `type must be one of ${nasTypes}`],
      [{ price: 12.5 }, 'price must be a string or null, got a number'],
      [{ host: 'not a host' }, 'host must be a host name, IPv4 address or [IPv6] address'],
    ],
  },
  {
    method: 'PUT',
    name: 'PUT /nas/{nas_id}',
    path: () => api(`/nas/${nas.id}`),
    show: () => api(`/nas/${nas.id}`),
    valid: () => ({}),
    success: 200,
    known: 'name, host, type, comment, price',
    typo: ['hots', 'host'],
    readOnly: { id: 987654 },
    rules: [
      [{ type: 5 }, `type must be one of ${nasTypes}`],
      [{ name: '1234' }, 'name must not be all digits (an all-digit name would read as an id in paths)'],
    ],
  },
  {
    method: 'POST',
    name: 'POST /pools',
    path: () => api('/pools'),
    valid: () => ({ name: unique('strict-pool') }),
    success: 201,
    known: 'name, comment, type, content',
    typo: ['commnet', 'comment'],
    readOnly: { id: 987654, primary_id: 987654 },
    rules: [
      [{ type: 'hot' }, `type must be one of ${poolTypes}`],
      [{ content: 'disk' }, 'content must be one of tape, cloud, nas'],
      [{ nas_share_ids: [1] }, 'nas_share_ids is set through PUT /pools/{id} {"nas_share_ids": [...]} once the pool exists'],
    ],
  },
  {
    method: 'PUT',
    name: 'PUT /pools/{pool_id}',
    path: () => api(`/pools/${pool.id}`),
    show: () => api(`/pools/${pool.id}`),
    valid: () => ({}),
    success: 200,
    known: 'name, comment, type, content, nas_share_ids',
    typo: ['nas_share_id', 'nas_share_ids'],
    readOnly: { id: 987654, primary_id: 987654 },
    rules: [
      [{ nas_share_ids: [1, 'x'] }, 'nas_share_ids[1] must be an integer, got a string'],
      [{ nas_share_ids: [1, 2, 2.5] }, 'nas_share_ids[2] must be an integer, got 2.5'],
      [{ nas_share_ids: [0] }, 'nas_share_ids[0] must be between 1 and 2147483647'],
      [{ nas_share_ids: '1,2' }, 'nas_share_ids must be an array, got a string'],
    ],
  },
  {
    method: 'POST',
    name: 'POST /nas/{nas_id}/nas_shares',
    path: () => api(`/nas/${nas.id}/nas_shares`),
    valid: () => ({ name: unique('strict-share'), path: 'strict/share' }),
    success: 201,
    known: shareFields,
    typo: ['pasword', 'password'],
    readOnly: shareReadOnly,
    rules: [...shareRules, [{ pool: 3 }, `unknown field 'pool'; did you mean 'pool_id'? (pool_id is set through PUT /pools/{id} {"nas_share_ids": [...]})`]],
  },
  {
    method: 'PUT',
    name: 'PUT /nas/{nas_id}/nas_shares/-/test',
    path: () => api(`/nas/${nas.id}/nas_shares/-/test`),
    valid: () => ({ name: 'probe', path: 'strict/probe' }),
    success: 202,
    known: shareFields,
    typo: ['optoins', 'options'],
    readOnly: shareReadOnly,
    rules: shareRules,
  },
  sharePut('PUT /nas/{nas_id}/nas_shares/{nas_share_id}', () => `/nas/${nas.id}/nas_shares/${share.id}`),
  sharePut('PUT /nas_shares/{nas_share_id}', () => `/nas_shares/${share.id}`),
  sharePut('PUT /pools/{pool_id}/nas_shares/{nas_share_id}', () => `/pools/${pool.id}/nas_shares/${share.id}`),
  {
    method: 'POST',
    name: 'POST /snmp/traps',
    path: () => api('/snmp/traps'),
    valid: () => ({ manager: '192.0.2.20' }),
    success: 201,
    known:
      'activation, version, manager, community, severity_low, severity_high, notify_type, security_name, security_level, auth_protocol, auth_passphrase, priv_protocol, priv_passphrase',
    typo: ['severityLow', 'severity_low'],
    readOnly: { snmp_trap_id: '987654' },
    rules: trapRules,
  },
  {
    method: 'PUT',
    name: 'PUT /snmp/traps/{snmp_trap_id}',
    path: () => api(`/snmp/traps/${trap.snmp_trap_id}`),
    show: () => api(`/snmp/traps/${trap.snmp_trap_id}`),
    valid: () => ({}),
    success: 200,
    known:
      'activation, version, manager, community, severity_low, severity_high, notify_type, security_name, security_level, auth_protocol, auth_passphrase, priv_protocol, priv_passphrase',
    typo: ['managr', 'manager'],
    readOnly: { snmp_trap_id: '987654' },
    rules: trapRules,
  },
  {
    method: 'PUT',
    name: 'PUT /snmp/server_configuration',
    path: () => api('/snmp/server_configuration'),
    show: () => api('/snmp/server_configuration'),
    valid: () => ({}),
    success: 200,
    known: 'version, community, location, contact, agent_enabled, agent_address, agent_port, users',
    typo: ['comunity', 'community'],
    readOnly: {},
    rules: [
      [{ version: 'v3' }, 'version must be one of v1, v2c'],
      [{ location: 5 }, 'location must be a string, got a number'],
      [{ contact: 'a\u0001b' }, 'contact must not contain control characters'],
    ],
  },
  {
    method: 'PUT',
    name: 'PUT /settings',
    path: () => api('/settings'),
    show: () => api('/settings'),
    valid: () => ({}),
    success: 200,
    known:
      'jwt_enabled, jwt_ttl_seconds, job_queue_max_per_principal, job_queue_max_total, share_test_allowed_hosts, api_keys_max_per_user, job_retention_days, audit_retention_days, failed_sign_in_retention_days, scan_retention_days, alert_retention_days, schedule_min_interval_seconds, capacity_retention_days, oidc_enabled, oidc_issuer, oidc_client_id, oidc_client_secret, oidc_scopes, oidc_role_claim, oidc_role_map, oidc_auto_create, oidc_button_label',
    typo: ['jwt_enable', 'jwt_enabled'],
    readOnly: {},
    rules: [
      [{ jwt_enabled: 'yes' }, 'jwt_enabled must be true or false, got a string'],
      [{ jwt_ttl_seconds: 59 }, 'jwt_ttl_seconds must be between 60 and 2592000'],
      [{ share_test_allowed_hosts: ['a b'] }, 'share_test_allowed_hosts[0] must be a host name, an IP address or a CIDR block such as 10.0.0.0/8'],
      [{ api_keys_max_per_user: 0 }, 'api_keys_max_per_user must be between 1 and 10000'],
      [{ job_retention_days: 0 }, 'job_retention_days must be between 1 and 3650'],
      [{ audit_retention_days: 3651 }, 'audit_retention_days must be between 1 and 3650'],
      [{ scan_retention_days: 0 }, 'scan_retention_days must be between 1 and 3650'],
      [{ alert_retention_days: 1.5 }, 'alert_retention_days must be an integer, got 1.5'],
    ],
  },
  {
    method: 'POST',
    name: 'POST /users',
    path: () => api('/users'),
    valid: () => ({ username: unique('strict-user'), password: 'long-enough-1' }),
    success: 201,
    known: 'username, password, admin, role',
    typo: ['passwrd', 'password'],
    readOnly: { id: 987654, created_at: '2000-01-01T00:00:00.000Z' },
    rules: [
      [{ admin: 'yes' }, 'admin must be true or false, got a string'],
      [{ password: 'short' }, 'password is too short (minimum is 8 characters)'],
    ],
  },
  {
    method: 'PUT',
    name: 'PUT /users/{user_id}',
    path: () => api(`/users/${user.id}`),
    show: () => api(`/users/${user.id}`),
    valid: () => ({}),
    success: 200,
    known: 'password, admin, role, disabled',
    typo: ['admn', 'admin'],
    readOnly: { id: 987654, username: 'renamed', created_at: '2000-01-01T00:00:00.000Z' },
    rules: [[{ admin: 1 }, 'admin must be true or false, got a number']],
  },
  {
    method: 'POST',
    name: 'POST /api_keys',
    path: () => api('/api_keys'),
    valid: () => ({ name: unique('strict-key'), api_key_scopes: [{ controller: 'nas', action: 'index' }] }),
    success: 201,
    known: 'name, api_key_scopes, role, expires_at',
    typo: ['expire_at', 'expires_at'],
    readOnly: { id: 987654, masked_key: 'dms_…abcd', created_at: '2000-01-01T00:00:00.000Z', last_used_at: '2000-01-01T00:00:00.000Z' },
    rules: [...apiKeyRules, [{ key: 'dms_mine' }, 'key is generated by the service and shown once, in the answer of POST /api_keys']],
  },
  {
    method: 'PUT',
    name: 'PUT /api_keys/{api_key_id}',
    path: () => api(`/api_keys/${apiKey.id}`),
    show: () => api(`/api_keys/${apiKey.id}`),
    valid: () => ({}),
    success: 200,
    known: 'name, api_key_scopes, role, expires_at',
    typo: ['api_key_scope', 'api_key_scopes'],
    readOnly: { id: 987654, masked_key: 'dms_…abcd', created_at: '2000-01-01T00:00:00.000Z', last_used_at: '2000-01-01T00:00:00.000Z' },
    rules: apiKeyRules,
  },
  {
    method: 'POST',
    name: 'POST /cors_rules',
    path: () => api('/cors_rules'),
    valid: () => ({ origins: ['https://strict.example'], methods: ['GET'] }),
    success: 201,
    known: 'origins, path, methods',
    typo: ['orgins', 'origins'],
    readOnly: { id: 987654 },
    rules: corsRules,
  },
  {
    method: 'PUT',
    name: 'PUT /cors_rules/{cors_rule_id}',
    path: () => api(`/cors_rules/${corsRule.id}`),
    show: () => api(`/cors_rules/${corsRule.id}`),
    valid: () => ({}),
    success: 200,
    known: 'origins, path, methods',
    typo: ['method', 'methods'],
    readOnly: { id: 987654 },
    rules: corsRules,
  },
  {
    method: 'POST',
    name: 'POST /schedules',
    path: () => api('/schedules'),
    valid: () => ({ name: unique('strict-schedule'), action: 'test', nas_share_ids: [share.id], rrule: dailyRule }),
    success: 201,
    known: scheduleFields,
    typo: ['rrul', 'rrule'],
    readOnly: scheduleReadOnly,
    rules: scheduleRules,
  },
  {
    method: 'PUT',
    name: 'PUT /schedules/{schedule_id}',
    path: () => api(`/schedules/${schedule.id}`),
    show: () => api(`/schedules/${schedule.id}`),
    valid: () => ({}),
    success: 200,
    known: scheduleFields,
    typo: ['enable', 'enabled'],
    readOnly: scheduleReadOnly,
    rules: scheduleRules,
    // A PUT that changes nothing still writes the record (and an audit event): updated_at moves.
    touched: ['updated_at'],
  },
  {
    method: 'PUT',
    name: 'PUT /alerts/{alert_id}',
    path: () => api(`/alerts/${alertId}`),
    // No `show`: a GET body lacks `dismissed`, which the PUT needs (its description says so).
    valid: () => ({ dismissed: true }),
    success: 200,
    known: 'dismissed',
    typo: ['dismised', 'dismissed'],
    readOnly: {
      id: 987654,
      source: 'scan_failed',
      level: 1,
      resource: null,
      message: 'mine',
      raised_at: '2000-01-01T00:00:00.000Z',
      last_seen_at: '2000-01-01T00:00:00.000Z',
      cleared_at: '2000-01-01T00:00:00.000Z',
      dismissed_at: '2000-01-01T00:00:00.000Z',
    },
    rules: [[{ dismissed: 'yes' }, 'dismissed must be true or false, got a string']],
  },
  {
    method: 'PUT',
    name: 'PUT /alert_settings/{source}',
    path: () => api('/alert_settings/scan_failed'),
    valid: () => ({}),
    success: 200,
    known: 'enabled, level, warning_percent, critical_percent, days, raise_after_seconds, clear_after_seconds',
    typo: ['levl', 'level'],
    readOnly: { source: 'share_unreachable', description: 'mine' },
    rules: [
      [{ level: 6 }, 'level must be between 1 and 5'],
      [{ level: 2.5 }, 'level must be an integer, got 2.5'],
      [{ enabled: 1 }, 'enabled must be true or false, got a number'],
    ],
  },
];

async function shown(endpoint: WriteEndpoint): Promise<unknown> {
  if (endpoint.show === undefined) return undefined;
  const record = await readJson<Record<string, unknown>>(await t.call('GET', endpoint.show(), { auth: t.basic }));
  for (const field of endpoint.touched ?? []) delete record[field];
  return record;
}

async function send(endpoint: WriteEndpoint, body: Record<string, unknown>): Promise<Response> {
  return t.call(endpoint.method, endpoint.path(), { auth: t.basic, body });
}

describe.each(endpoints)('$name', (endpoint) => {
  it('refuses a near typo (422 unknown), names the field meant, and changes nothing', async () => {
    const before = await shown(endpoint);
    const [typo, meant] = endpoint.typo;
    const error = await expectModelError(await send(endpoint, { ...endpoint.valid(), [typo]: 1 }), 422, typo, 'unknown');
    expect(error.details[typo]).toEqual([{ error: 'unknown' }]);
    expect(error.messages).toContain(`unknown field '${typo}'; did you mean '${meant}'?`);
    expect(await shown(endpoint)).toEqual(before);
  });

  it('refuses a field unlike any and lists the known ones', async () => {
    const error = await expectModelError(await send(endpoint, { ...endpoint.valid(), colour: 'red' }), 422, 'colour', 'unknown');
    expect(error.messages).toEqual([`unknown field 'colour'; known fields: ${endpoint.known}`]);
  });

  it('accepts and ignores read-only fields, whatever their value', async () => {
    const before = await shown(endpoint);
    const res = await send(endpoint, { ...endpoint.valid(), ...endpoint.readOnly });
    expect(res.status, await res.clone().text()).toBe(endpoint.success);
    const answer = await readJson<Record<string, unknown>>(res);
    for (const [field, value] of Object.entries(endpoint.readOnly)) {
      if (field in answer) expect(answer[field], field).not.toEqual(value);
    }
    if (endpoint.show !== undefined) expect(await shown(endpoint)).toEqual(before);
  });

  // Only a PUT has a GET body to send back.
  if (endpoint.show !== undefined) {
    it('takes its GET body back unchanged', async () => {
      const before = await shown(endpoint);
      const res = await t.call('PUT', endpoint.path(), { auth: t.basic, body: before });
      expect(res.status, await res.clone().text()).toBe(200);
      const answer = await readJson<Record<string, unknown>>(res);
      for (const field of endpoint.touched ?? []) delete answer[field];
      expect(answer).toEqual(before);
      expect(await shown(endpoint)).toEqual(before);
    });
  }

  it.each(endpoint.rules.map(([patch, message]) => ({ patch, message })))('says "$message"', async ({ patch, message }) => {
    const res = await send(endpoint, { ...endpoint.valid(), ...patch });
    const error = await expectModelError(res, 422);
    expect(error.messages).toContain(message);
  });
});

describe('GET body PUT back (fast-check)', () => {
  const label = fc.stringMatching(/^[A-Za-z0-9 ._-]{0,12}$/);
  const printable = fc.stringMatching(/^[\x20-\x7e]{1,20}$/);
  const optional = <T>(value: fc.Arbitrary<T>) => fc.option(value, { nil: null });

  /** Creates a record through the core, PUTs its GET body back, and expects no change. */
  async function roundTrip(path: string): Promise<void> {
    const first = await readJson<unknown>(await t.call('GET', path, { auth: t.basic }));
    const put = await t.call('PUT', path, { auth: t.basic, body: first as Record<string, unknown> });
    expect(put.status, `${path}: ${await put.clone().text()}`).toBe(200);
    expect(await put.json()).toEqual(first);
    expect(await readJson<unknown>(await t.call('GET', path, { auth: t.basic }))).toEqual(first);
  }

  it('a NAS', async () => {
    const nasType = fc.constantFrom('smb_v1', 'smb_v2_1', 'smb_v3', 'nfs_v3', 'nfs_v4', 'storenext_v5', 'local');
    const price = optional(fc.stringMatching(/^\d{1,6}(\.\d{1,4})?$/));
    await fc.assert(
      fc.asyncProperty(label, fc.domain(), nasType, optional(label), price, async (name, host, type, comment, price) => {
        const created = await t.core.nas.create(systemPrincipal, { name: unique(`rt-nas ${name}`), host, type, comment, price });
        await roundTrip(api(`/nas/${created.id}`));
      }),
      { numRuns: 25 },
    );
  });

  it('a pool, with and without shares', async () => {
    const poolType = fc.constantFrom('active_archive', 'offline_archive', 'data_exchange', 'scratch', 'data_enrichment', 'primary');
    await fc.assert(
      fc.asyncProperty(label, optional(label), poolType, fc.boolean(), async (name, comment, type, withShare) => {
        const created = await t.core.pools.create(systemPrincipal, { name: unique(`rt-pool ${name}`), comment, type, content: 'nas' });
        if (withShare) await joinPool(t, created, [(await addShare(t, nas, { path: 'strict/pooled' })).id]);
        await roundTrip(api(`/pools/${created.id}`));
      }),
      { numRuns: 25 },
    );
  });

  it('a share, through each route family', async () => {
    const options = optional(fc.constantFrom('ro', 'ro,vers=3', 'soft,timeo=30', ''));
    await fc.assert(
      fc.asyncProperty(label, label, options, optional(label), optional(printable), fc.boolean(), async (name, path, options, username, password, pooled) => {
        const created = await addShare(t, nas, { name: unique(`rt-share ${name}`), path: `strict/${path}x`, options, username, password });
        if (pooled) await joinPool(t, pool, [...(await t.core.pools.show(systemPrincipal, String(pool.id))).nas_share_ids, created.id]);
        await roundTrip(api(`/nas_shares/${created.id}`));
        await roundTrip(api(`/nas/${nas.id}/nas_shares/${created.id}`));
        if (pooled) await roundTrip(api(`/pools/${pool.id}/nas_shares/${created.id}`));
      }),
      { numRuns: 25 },
    );
  });

  it('a trap', async () => {
    const band = fc.tuple(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 5 })).map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as const);
    const manager = fc.oneof(
      fc.ipV4(),
      fc.domain(),
      fc.tuple(fc.ipV4(), fc.integer({ min: 1, max: 65535 })).map(([ip, port]) => `${ip}:${port}`),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(0, 1),
        fc.constantFrom('v1', 'v2c'),
        manager,
        printable,
        band,
        async (activation, version, manager, community, [low, high]) => {
          const created = await addTrap(t, { activation, version, manager, community, severity_low: low, severity_high: high });
          await roundTrip(api(`/snmp/traps/${created.snmp_trap_id}`));
        },
      ),
      { numRuns: 25 },
    );
  });

  it('the SNMP server configuration', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('v1', 'v2c'), printable, label, label, async (version, community, location, contact) => {
        await t.core.snmpConfig.update(systemPrincipal, { version, community, location, contact });
        await roundTrip(api('/snmp/server_configuration'));
      }),
      { numRuns: 15 },
    );
  });

  it('a CORS rule', async () => {
    const origins = fc.uniqueArray(fc.constantFrom('*', 'https://app.example.com', 'http://localhost:5173', 'example.org', '[::1]'), {
      minLength: 1,
      maxLength: 5,
    });
    const path = fc.constantFrom('*', '/api/v2/*', '/api/v2/nas_shares*', '/api/v2/snmp/traps');
    const methods = fc.uniqueArray(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE'), { minLength: 1, maxLength: 4 });
    await fc.assert(
      fc.asyncProperty(origins, path, methods, async (origins, path, methods) => {
        const created = await addCorsRule(t, { origins, path, methods });
        await roundTrip(api(`/cors_rules/${created.id}`));
      }),
      { numRuns: 25 },
    );
  });
});
