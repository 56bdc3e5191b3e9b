import type { Client } from 'openapi-fetch';
import { caller, type Call } from './call.js';
import { createFetchClient } from './openapi-fetch.js';
import type { paths } from './generated/openapi.js';
import { alertSettingsResource, type AlertSettingsResource } from './resources/alert-settings.js';
import { alertsResource, type AlertsResource } from './resources/alerts.js';
import { auditEventsResource, type AuditEventsResource } from './resources/audit-events.js';
import { crud, type CrudResource } from './resources/crud.js';
import { jobsResource, type JobsResource } from './resources/jobs.js';
import { nasSharesResource, type NasSharesResource } from './resources/nas-shares.js';
import { schedulesResource, type SchedulesResource } from './resources/schedules.js';
import { notificationChannelsResource, type NotificationChannelsResource } from './resources/notification-channels.js';
import { statisticsResource, type StatisticsResource } from './resources/statistics.js';
import { sessionsResource, type SessionsResource } from './resources/sessions.js';
import { totpResource, type TotpResource } from './resources/totp.js';
import { rolesResource, type RolesResource } from './resources/roles.js';
import { createTransport, EtagCache, type RetryOptions } from './transport.js';
import type * as T from './types.js';

/** A user's password (its role's scopes), an API key (its scopes) or a JWT from `login`. */
export type Auth = { basic: { username: string; password: string } } | { apiKey: string } | { jwt: string };

export interface ClientOptions {
  /** The server, e.g. `http://127.0.0.1:8080`; `/api/v2` is added unless the URL ends with it. */
  baseUrl: string;
  /** Absent: public operations only (`auth.login`). */
  auth?: Auth;
  /** Replaces the global fetch (a proxy agent, a test double). */
  fetch?: typeof fetch;
  /** Retries of GET, PUT and DELETE on 429, 502, 503, 504 and network errors; `false`: none. */
  retry?: RetryOptions | false;
  /** Per attempt; a job's long poll gets its `wait` on top (30 s). */
  timeoutMs?: number;
  /** Sent as User-Agent where the runtime allows it (browsers do not). */
  userAgent?: string;
  /** Keeps GET answers and revalidates them with If-None-Match; a 304 is served from here. */
  cache?: boolean | { maxEntries: number };
}

type Crud<List extends T.OperationId, Create extends T.OperationId, Show extends T.OperationId, Update extends T.OperationId> = CrudResource<{
  item: T.ResultOf<Show>;
  created: T.ResultOf<Create>;
  collection: T.ResultOf<List>;
  create: T.BodyOf<Create>;
  update: T.BodyOf<Update>;
  filter: T.FilterFieldOf<List>;
  sort: T.SortFieldOf<List>;
}>;

export interface DmsClient {
  nas: Crud<'listNas', 'createNas', 'showNas', 'updateNas'>;
  pools: Crud<'listPools', 'createPool', 'showPool', 'updatePool'> & {
    /** Makes these shares the pool's shares (a pool whose content is `nas`). */
    setShares(ref: T.Ref, nasShareIds: readonly number[], options?: T.CallOptions): Promise<T.Pool>;
  };
  nasShares: NasSharesResource;
  /** Share tests and scans, whoever started them (a user, a key, the scheduler), until their retention. */
  jobs: JobsResource;
  /** Share tests and scans started on an RFC 5545 rule, as jobs requested by `scheduler`. */
  schedules: SchedulesResource;
  /** Conditions dms keeps watch on: raised, updated while they last, cleared, dismissable. */
  alerts: AlertsResource;
  /** Per alert source: enabled and level (changes: administrators only). */
  alertSettings: AlertSettingsResource;
  /** Where alerts and job outcomes are sent, with a test message and the deliveries (administrators only). */
  notificationChannels: NotificationChannelsResource;
  /** Alerts raised and listed but told to no channel for a while: until a time, in a repeating window, or until cleared (changes: administrators only). */
  silences: Crud<'listSilences', 'createSilence', 'showSilence', 'updateSilence'>;
  /** Capacity from the latest scans, per NAS and pool, and its growth. */
  statistics: StatisticsResource;
  snmp: {
    traps: Crud<'listSnmpTraps', 'createSnmpTrap', 'showSnmpTrap', 'updateSnmpTrap'> & {
      /** Sends a test trap to this target now. */
      test(ref: T.Ref, options?: T.CallOptions): Promise<T.Trap>;
    };
    serverConfiguration: Singleton<T.SnmpServerConfiguration, T.SnmpServerConfigurationUpdate>;
  };
  apiKeys: Crud<'listApiKeys', 'createApiKey', 'showApiKey', 'updateApiKey'> & {
    /** What the client's own credential may do. */
    current(options?: T.CallOptions): Promise<T.CurrentCredential>;
  };
  users: Crud<'listUsers', 'createUser', 'showUser', 'updateUser'> & {
    /** Turns a user's TOTP off (administrators only): a lost phone and lost recovery codes. */
    resetTotp(ref: T.Ref, options?: T.CallOptions): Promise<void>;
  };
  /** Built-in and custom roles, each a set of scopes (changes: administrators only). */
  roles: RolesResource;
  /** The signed-in user's own TOTP second factor. */
  totp: TotpResource;
  /** Signed-in sessions: a user's own, an administrator's everyone's; ending one stops its token. */
  sessions: SessionsResource;
  corsRules: Crud<'listCorsRules', 'createCorsRule', 'showCorsRule', 'updateCorsRule'>;
  settings: Singleton<T.Settings, T.SettingsUpdate>;
  /** Who changed what, when and through which door (administrators only). */
  auditEvents: AuditEventsResource;
  auth: {
    /**
     * A JWT for a user's credentials (JWT mode only); `login()` makes a client of it. A user with
     * TOTP on adds `totp_code` (or `recovery_code`) to the options: without it the answer is a
     * 401 whose `details.totp_code` is `blank`.
     */
    login(username: string, password: string, options?: T.CallOptions & T.SecondFactor): Promise<T.JwtToken>;
    /** Where to send a browser for single sign-on: GET /auth/oidc/login answers 302 to the OpenID provider. */
    oidcLoginUrl(): string;
    /**
     * Finishes single sign-on with the address (or its query string) the provider sent the
     * browser back to, GET /auth/oidc/callback: JWT mode's token, as `login` answers.
     */
    finishOidcLogin(callback: string | URL | URLSearchParams, options?: T.CallOptions): Promise<T.JwtToken>;
  };
  /** The openapi-fetch client underneath, typed by the API description, for anything else. */
  raw: Client<paths>;
}

export interface Singleton<Item, Update> {
  get(options?: T.CallOptions): Promise<Item>;
  update(body: Update, options?: T.CallOptions): Promise<Item>;
}

function singleton<Item, Update>(call: Call, path: string): Singleton<Item, Update> {
  return {
    get: (options = {}) => call('GET', path, { signal: options.signal }) as Promise<Item>,
    update: (body, options = {}) => call('PUT', path, { body, signal: options.signal }) as Promise<Item>,
  };
}

/** The query string of the provider's redirect back, from the whole address or the query alone. */
function callbackQuery(callback: string | URL | URLSearchParams): Record<string, string> {
  const params =
    callback instanceof URLSearchParams
      ? callback
      : callback instanceof URL
        ? callback.searchParams
        : /^[a-z][a-z0-9+.-]*:/i.test(callback)
          ? new URL(callback).searchParams
          : new URLSearchParams(callback);
  const query: Record<string, string> = {};
  params.forEach((value, name) => (query[name] = value));
  return query;
}

/** btoa takes Latin-1 only: UTF-8 bytes first, so any user name and password work. */
function base64(text: string): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(text)));
}

function authorization(auth: Auth): string {
  if ('basic' in auth) return `Basic ${base64(`${auth.basic.username}:${auth.basic.password}`)}`;
  return `Bearer ${'apiKey' in auth ? auth.apiKey : auth.jwt}`;
}

function apiBaseUrl(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, '');
  return trimmed.endsWith('/api/v2') ? trimmed : `${trimmed}/api/v2`;
}

/**
 * A credential that is empty (an unset environment variable, `process.env.DMS_API_KEY!`) is
 * refused here, where the mistake is, rather than by the server as a 401 on the first call.
 */
function checkAuth(auth: Auth): void {
  const blank = (value: unknown) => typeof value !== 'string' || value.trim() === '';
  const problem =
    'basic' in auth
      ? blank(auth.basic?.username) && 'auth.basic.username is empty'
      : 'apiKey' in auth
        ? blank(auth.apiKey) && 'auth.apiKey is empty'
        : 'jwt' in auth
          ? blank(auth.jwt) && 'auth.jwt is empty'
          : 'auth takes one of { basic: { username, password } }, { apiKey }, { jwt }';
  if (problem) throw new TypeError(`createClient: ${problem}; pass a non-empty credential, or no auth for public operations only (auth.login)`);
}

export function createClient(options: ClientOptions): DmsClient {
  const { retry = {}, cache } = options;
  if (options.auth !== undefined) checkAuth(options.auth);
  const headers: Record<string, string> = {};
  if (options.auth) headers['Authorization'] = authorization(options.auth);
  if (options.userAgent) headers['User-Agent'] = options.userAgent;
  const raw = createFetchClient<paths>({
    baseUrl: apiBaseUrl(options.baseUrl),
    headers,
    fetch: createTransport({
      // Looked up per call, not captured: a test or polyfill may replace the global later.
      fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      retry: retry && { retries: 2, minDelayMs: 250, maxDelayMs: 30_000, ...retry },
      timeoutMs: options.timeoutMs ?? 30_000,
      cache: cache ? new EtagCache(cache === true ? 256 : cache.maxEntries) : undefined,
    }),
  });
  const call = caller(raw);
  const pools = crud<DmsClient['pools'] extends CrudResource<infer C> ? C : never>(call, '/pools', 'pool_id', 'pools');
  const traps = crud<DmsClient['snmp']['traps'] extends CrudResource<infer C> ? C : never>(call, '/snmp/traps', 'snmp_trap_id', 'traps');
  const apiKeys = crud<DmsClient['apiKeys'] extends CrudResource<infer C> ? C : never>(call, '/api_keys', 'api_key_id', 'api_keys');
  return {
    nas: crud(call, '/nas', 'nas_id', 'nas'),
    pools: { ...pools, setShares: (ref, nasShareIds, callOptions) => pools.update(ref, { nas_share_ids: [...nasShareIds] }, callOptions) },
    nasShares: nasSharesResource(call),
    jobs: jobsResource(call),
    schedules: schedulesResource(call),
    alerts: alertsResource(call),
    alertSettings: alertSettingsResource(call),
    notificationChannels: notificationChannelsResource(call),
    silences: crud(call, '/silences', 'silence_id', 'silences'),
    statistics: statisticsResource(call),
    snmp: {
      traps: {
        ...traps,
        test: (ref, callOptions = {}) =>
          call('POST', '/snmp/traps/{snmp_trap_id}/test', { path: { snmp_trap_id: String(ref) }, signal: callOptions.signal }) as Promise<T.Trap>,
      },
      serverConfiguration: singleton(call, '/snmp/server_configuration'),
    },
    apiKeys: { ...apiKeys, current: (callOptions = {}) => call('GET', '/api_keys/current', { signal: callOptions.signal }) as Promise<T.CurrentCredential> },
    users: {
      ...crud<DmsClient['users'] extends CrudResource<infer C> ? C : never>(call, '/users', 'user_id', 'users'),
      resetTotp: async (ref, callOptions = {}) => {
        await call('DELETE', '/users/{user_id}/totp', { path: { user_id: String(ref) }, signal: callOptions.signal });
      },
    },
    totp: totpResource(call),
    sessions: sessionsResource(call),
    roles: rolesResource(call),
    corsRules: crud(call, '/cors_rules', 'cors_rule_id', 'cors_rules'),
    settings: singleton(call, '/settings'),
    auditEvents: auditEventsResource(call),
    auth: {
      login: (username, password, { signal, totp_code, recovery_code } = {}) =>
        call('POST', '/auth/login', {
          body: { username, password, ...(totp_code === undefined ? {} : { totp_code }), ...(recovery_code === undefined ? {} : { recovery_code }) },
          signal,
        }) as Promise<T.JwtToken>,
      oidcLoginUrl: () => `${apiBaseUrl(options.baseUrl)}/auth/oidc/login`,
      finishOidcLogin: (callback, callOptions = {}) =>
        call('GET', '/auth/oidc/callback', { query: callbackQuery(callback), signal: callOptions.signal }) as Promise<T.JwtToken>,
    },
    raw,
  };
}

/** Logs in (POST /auth/login, JWT mode) and answers a client that sends the token. */
export async function login(baseUrl: string, username: string, password: string, options: Omit<ClientOptions, 'baseUrl' | 'auth'> = {}): Promise<DmsClient> {
  const { token } = await createClient({ ...options, baseUrl }).auth.login(username, password);
  return createClient({ ...options, baseUrl, auth: { jwt: token } });
}
