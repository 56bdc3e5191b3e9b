import { expect } from 'vitest';
import { generate } from 'otplib';
import {
  ScanAnalyticsBuilder,
  builtInRole,
  systemPrincipal,
  type Principal,
  type ScanAnalytics,
  type Alert,
  type AlertSource,
  type ApiKeyView,
  type CorsRule,
  type Nas,
  type NasShare,
  type Pool,
  type Schedule,
  type Scope,
  type SnmpConfig,
  type Trap,
  type User,
} from '@dms/core';
import type { TestApp } from './test-app.js';
import type { Channel, Silence } from '@dms/core';

/** model_error (docs/api.md#errors), as a client reads it. */
export interface ModelErrorBody {
  details: Record<string, Array<{ error: string; count?: number; value?: string | number }>>;
  messages: string[];
}
export interface ShareCollectionBody {
  count: number;
  nas_shares: NasShare[];
}
export type { Alert, Channel, Silence, ApiKeyView, CorsRule, Nas, NasShare, Pool, Schedule, SnmpConfig, Trap, User };

export async function readJson<T>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

/**
 * Asserts a model_error answer: the status, the body shape, and (when given) an
 * attribute_error of `type` on `attribute`. Returns the body for further checks.
 */
export async function expectModelError(res: Response, status: number, attribute?: string, type?: string): Promise<ModelErrorBody> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const body = JSON.parse(text) as ModelErrorBody;
  expect(body.messages.length).toBeGreaterThan(0);
  for (const message of body.messages) expect(typeof message).toBe('string');
  expect(typeof body.details).toBe('object');
  if (attribute !== undefined) {
    expect(body.details[attribute], text).toBeDefined();
    if (type !== undefined)
      expect(
        body.details[attribute]!.map((e) => e.error),
        text,
      ).toContain(type);
  }
  return body;
}

let serial = 0;
/** A name no other fixture of this process uses. */
export function unique(prefix: string): string {
  serial += 1;
  return `${prefix}-${serial}`;
}

/** Fixtures are written through the core (fast); the HTTP layer is what the tests exercise. */
export function addNas(t: TestApp, fields: Partial<Nas> & { name?: string } = {}): Promise<Nas> {
  return t.core.nas.create(systemPrincipal, { name: unique('nas'), host: 'nas.example', type: 'local', ...fields });
}

export function addPool(t: TestApp, fields: Partial<Omit<Pool, 'id' | 'primary_id' | 'nas_share_ids'>> = {}): Promise<Pool> {
  return t.core.pools.create(systemPrincipal, { name: unique('pool'), ...fields });
}

export function addShare(
  t: TestApp,
  nas: Pick<Nas, 'id'>,
  fields: Partial<Pick<NasShare, 'name' | 'path' | 'options' | 'username' | 'password'>> = {},
): Promise<NasShare> {
  return t.core.shares.create(systemPrincipal, String(nas.id), { name: unique('share'), path: 'share', ...fields });
}

export async function joinPool(t: TestApp, pool: Pick<Pool, 'id'>, shareIds: number[]): Promise<Pool> {
  return t.core.pools.update(systemPrincipal, String(pool.id), { nas_share_ids: shareIds });
}

export function addTrap(t: TestApp, fields: Partial<Omit<Trap, 'snmp_trap_id'>> = {}): Promise<Trap> {
  return t.core.traps.create(systemPrincipal, { manager: '192.0.2.10', ...fields });
}

/**
 * One of each resource a route suite walks: `nas` holds `share`, which is in `pool`; `emptyNas`
 * has no share (DELETE /nas/{id} can remove it); a trap target. The rest (a user, a key, a CORS
 * rule, a job) is made per row by the suites that need it, since a user costs an argon2 hash.
 */
export interface ResourceWorld {
  nas: Nas;
  emptyNas: Nas;
  pool: Pool;
  share: NasShare;
  trap: Trap;
  user?: User;
  apiKey?: ApiKeyView;
  corsRule?: CorsRule;
  /** A job already started, for the rows that follow a job. */
  jobId?: string;
  schedule?: Schedule;
  alert?: Alert;
  /** Two completed scans of `share`, with analytics, older first. */
  scans?: { from: number; to: number };
  channel?: Channel;
  silence?: Silence;
  /** A stored session (a JWT login of `user`), for the rows that end one. */
  sessionId?: string;
  /** A custom role's name. */
  role?: string;
}

export async function seedResourceWorld(
  t: TestApp,
  fields: { nas?: Partial<Nas>; share?: Partial<Pick<NasShare, 'path' | 'password'>> } = {},
): Promise<ResourceWorld> {
  const nas = await addNas(t, fields.nas);
  const emptyNas = await addNas(t);
  const pool = await addPool(t);
  const share = await addShare(t, nas, fields.share);
  await joinPool(t, pool, [share.id]);
  return { nas, emptyNas, pool, share: { ...share, pool_id: pool.id }, trap: await addTrap(t) };
}

/** A non-admin user (hashes its password with argon2: tens of milliseconds). */
export function addUser(t: TestApp, fields: { username?: string; password?: string; admin?: boolean; role?: string } = {}): Promise<User> {
  return t.core.users.add({ username: unique('user'), password: 'user-password-1', ...fields });
}

/** A user with TOTP on, confirmed with a code computed from its secret at the core's clock. */
export async function addTotpUser(t: TestApp): Promise<User & { password: string; secret: string; recovery: string[] }> {
  const password = 'user-password-1';
  const user = await addUser(t, { password });
  const principal = principalOf(user);
  const { secret } = await t.core.totp.enroll(principal);
  const { recovery_codes } = await t.core.totp.confirm(principal, { totp_code: await totpCodeAt(secret, t.core.clock()) });
  return { ...user, password, secret, recovery: recovery_codes };
}

/** The code an authenticator app shows at `at`, computed from the secret as the test's own app. */
export function totpCodeAt(secret: string, at: Date): Promise<string> {
  return generate({ secret, epoch: Math.floor(at.getTime() / 1000) });
}

/** A JWT login of a new user (JWT mode turned on): its token and the id of its session. */
export async function addSession(t: TestApp): Promise<{ user: User; token: string; sessionId: string }> {
  await t.core.settings.update(systemPrincipal, { jwt_enabled: true });
  const user = await addUser(t);
  const res = await t.call('POST', '/api/v2/auth/login', { body: { username: user.username, password: 'user-password-1' } });
  const { token } = await readJson<{ token: string }>(res);
  const principal = principalOf(user);
  const { sessions } = await t.core.sessions.list(principal, {});
  return { user, token, sessionId: sessions[0]!.id };
}

/** The principal a stored user of a built-in role stands for, as a request authenticates it (docs/decisions/176-roles.md). */
export function principalOf(user: User): Principal {
  return { kind: 'user', userId: user.id, username: user.username, role: user.role, admin: user.admin, scopes: builtInRole(user.role)?.scopes ?? [] };
}

/** An API key record with these scopes (`controller/action` texts); the token is not kept. */
export async function addApiKey(t: TestApp, scopes: Array<`${string}/${string}`>, fields: { name?: string } = {}): Promise<ApiKeyView> {
  const api_key_scopes: Scope[] = scopes.map((scope) => {
    const [controller = '', action = ''] = scope.split('/');
    return { controller, action };
  });
  const { key: _token, ...view } = await t.core.apiKeys.create(systemPrincipal, { name: unique('key'), api_key_scopes, ...fields });
  return view;
}

/** A Slack channel whose URL refuses connections (nothing listens on port 4): a test send fails at once, nothing is sent anywhere. */
export function addChannel(t: TestApp, fields: Record<string, unknown> = {}): Promise<Channel> {
  return t.core.notificationChannels.create(systemPrincipal, {
    name: unique('channel'),
    type: 'slack',
    settings: { url: 'http://127.0.0.1:4/hook' },
    ...fields,
  });
}

/** A silence of the scan failures of a share that does not exist, until one clears: it holds no alert of a test's. */
export function addSilence(t: TestApp, fields: Record<string, unknown> = {}): Promise<Silence> {
  return t.core.silences.create(systemPrincipal, {
    matchers: { source: 'scan_failed', resource_id: '999999' },
    until_cleared: true,
    reason: unique('silence'),
    ...fields,
  });
}

/** A custom role holding `nas / index`; its name (lower case, as role names are). */
export async function addRole(t: TestApp): Promise<string> {
  return (await t.core.roles.create(systemPrincipal, { name: roleName(), scopes: [{ controller: 'nas', action: 'index' }] })).name;
}

/** A fresh custom role name: `unique`, in the lower case role names take. */
export function roleName(): string {
  return unique('role').toLowerCase();
}

export function addCorsRule(t: TestApp, fields: Partial<Omit<CorsRule, 'id'>> = {}): Promise<CorsRule> {
  return t.core.corsRules.create(systemPrincipal, { origins: ['https://app.example.com'], path: '/api/v2/nas*', methods: ['GET'], ...fields });
}

/** A rule that is due once a day at midnight UTC: no run starts while a test lasts. */
export const dailyRule = 'DTSTART:20250101T000000Z\nRRULE:FREQ=DAILY';

/** A daily test of these shares, enabled. */
export function addSchedule(t: TestApp, shareIds: number[], fields: Partial<Pick<Schedule, 'name' | 'action' | 'rrule' | 'enabled'>> = {}): Promise<Schedule> {
  return t.core.schedules.create(systemPrincipal, { name: unique('schedule'), action: 'test', nas_share_ids: shareIds, rrule: dailyRule, ...fields });
}

/**
 * An open alert of `source` on the share, as the alert watch raises one (a failed test raises
 * `share_unreachable`): through the core's own sighting, without a job. Returns it as stored.
 */
export async function raiseAlert(
  t: TestApp,
  share: Pick<NasShare, 'id' | 'name'>,
  source: AlertSource = 'share_unreachable',
  message = 'path not found on share',
): Promise<Alert> {
  await t.core.alerts.sight(source, { type: 'nas_shares', id: String(share.id), name: share.name }, message);
  const { alerts } = await t.core.alerts.list(systemPrincipal, {
    source: [source],
    resource_type: ['nas_shares'],
    resource_id: [String(share.id)],
    cleared_at: ['null'],
  });
  if (alerts.length !== 1) throw new Error(`expected one open ${source} alert on share ${share.id}, found ${alerts.length}`);
  return alerts[0]!;
}

/** A scan's analytics with one top directory: what the share's scan at `bytes` would keep. */
export function sampleAnalytics(bytes: number, directory = '/projects'): ScanAnalytics {
  const builder = new ScanAnalyticsBuilder(Date.parse('2025-01-15T03:00:00Z'));
  builder.file(directory, 'plan.pdf', bytes, Date.parse('2025-01-01T00:00:00Z'), null);
  builder.directory(directory, 0);
  builder.directory('/', 1);
  return builder.result();
}

/** Records two completed scans of a share, with analytics, as the job engine would; answers their ids. */
export async function addScans(t: TestApp, share: Pick<NasShare, 'id'>): Promise<{ from: number; to: number }> {
  const scan = (at: string, bytes: number) => ({ at, file_count: 1, file_size_sum: bytes, duration_ms: 5, capacity_bytes: null, free_bytes: null });
  await t.storage.shares.recordScan(share.id, scan('2025-01-14T03:00:00.000Z', 1000), sampleAnalytics(1000));
  await t.storage.shares.recordScan(share.id, scan('2025-01-15T03:00:00.000Z', 1500), sampleAnalytics(1500));
  const { items } = await t.storage.shares.listScans(share.id, {
    limit: 2,
    offset: 0,
    sort: [{ field: 'at', direction: 'asc', nullable: false }],
    filters: [],
  });
  return { from: items[0]!.id, to: items[1]!.id };
}
