import type { ScanAnalytics } from '../domain/scan-analytics.js';
import type { OidcStore } from './oidc-store.js';
import type { MaybePromise } from './maybe-promise.js';
import type { ListPage, ListQuery } from '../list-query/list-query.js';
import type { Scope } from '../scopes/scope.js';
import type { AgentSeed, SnmpConfig } from '../domain/snmp-config.js';
import type { Insertable, Selectable } from 'kysely';
import type { RowTimestamps } from '../tables/columns.js';
import type { NasRow } from '../tables/nas.table.js';
import type { PoolRow } from '../tables/pools.table.js';
import type { NasShareRow, NasShareTable, ShareForecast } from '../tables/nas-shares.table.js';
import type { ShareScanTable } from '../tables/share-scans.table.js';
import type { ShareCapacitySampleTable } from '../tables/share-capacity-samples.table.js';
import type { SnmpTrapRow } from '../tables/snmp-traps.table.js';
import type { UserTable } from '../tables/users.table.js';
import type { UserTotpTable } from '../tables/user-totp.table.js';
import type { SessionTable } from '../tables/sessions.table.js';
import type { RoleStore } from './role-store.js';
import type { ApiKeyTable } from '../tables/api-keys.table.js';
import type { CorsRuleTable } from '../tables/cors-rules.table.js';
import type { JobStore } from './job-store.js';
import type { AuditEventStore } from './audit-event-store.js';
import type { ScheduleStore } from './schedule-store.js';
import type { AlertStore } from './alert-store.js';
import type { AlertPendingStore } from './alert-pending-store.js';
import type { SilenceStore } from './silence-store.js';
import type { NotificationChannelStore, NotificationDeliveryStore, NotificationDigestStore } from './notification-store.js';

/**
 * Storage port. Every adapter (SQLite, PostgreSQL) passes the contract suite of
 * `@dms/core/testing`. Methods are asynchronous even where the adapter is not, so that
 * any adapter fits. Stores return records; the core's services turn them into responses.
 * A unique violation surfaces as DomainError('conflict') with a `taken` detail.
 *
 * Each record is its table's row (`packages/core/src/tables`) with what the store changes on
 * the way: JSON parsed, 0/1 made a boolean, secrets opened; never its columns written again.
 */
export type NasRecord = NasRow;
export type NasInsert = Omit<NasRecord, 'id'>;

export type PoolRecord = PoolRow;
export type PoolInsert = Omit<PoolRecord, 'id' | 'primary_id'>;

export interface NasShareRecord extends Omit<NasShareRow, 'capacity_forecast'> {
  /** From the capacity history (saveForecast); null while there is too little. */
  capacity_forecast: ShareForecast | null;
  /** The share's own `share_nearly_full` thresholds; null: the source's `/alert_settings`. */
  capacity_warning_percent: number | null;
  capacity_critical_percent: number | null;
}
export type { ShareForecast };
/** What the latest scan or test of a share set; written only by recordScan, recordTest and saveForecast. */
type ShareFindings =
  | 'file_count'
  | 'file_size_sum'
  | 'health'
  | 'last_tested_at'
  | 'last_test_status'
  | 'last_scanned_at'
  | 'capacity_bytes'
  | 'free_bytes'
  | 'capacity_checked_at'
  | 'capacity_forecast';
/** A nullable column may be left out (null), as Kysely's Insertable has it: a new column asks nothing of the callers that do not set it. */
export type NasShareInsert = Omit<Insertable<NasShareTable>, 'id' | 'pool_id' | RowTimestamps | ShareFindings>;
export type NasSharePatch = Partial<Omit<NasShareRecord, 'id' | 'nas_id' | ShareFindings>>;

/** A completed scan, as kept in the share's scan history (GET /nas_shares/{id}/scans). */
export type ShareScanRecord = Selectable<ShareScanTable>;

/** One capacity reading of a share, by a test or a scan: its capacity history. */
export type ShareCapacitySample = Omit<Selectable<ShareCapacitySampleTable>, 'id' | 'share_id'>;

/** A trap target; the passphrases (and the community) in clear inside the process only. */
export type TrapRecord = SnmpTrapRow;
/** How a target notifies, beyond v1/v2c traps: left out, a v1/v2c trap (the columns' defaults). */
type TrapNotificationField = 'notify_type' | 'security_name' | 'security_level' | 'auth_protocol' | 'auth_passphrase' | 'priv_protocol' | 'priv_passphrase';
export type TrapInsert = Omit<TrapRecord, 'id' | TrapNotificationField> & Partial<Pick<TrapRecord, TrapNotificationField>>;

export interface UserRecord extends Omit<Selectable<UserTable>, 'admin' | 'disabled'> {
  admin: boolean;
  disabled: boolean;
}

/** A user's second factor, its secret still sealed (docs/decisions/178-totp-second-factor.md). */
export interface UserTotpRecord extends Omit<Selectable<UserTotpTable>, 'enabled' | 'recovery_codes'> {
  enabled: boolean;
  recovery_codes: string[];
}

export type SessionRecord = Selectable<SessionTable>;

/** A session with its user as stored now: what a signed-in request is checked against, in one read. */
export interface SessionWithUser {
  session: SessionRecord;
  user: UserRecord;
}

export interface ApiKeyRecord extends Omit<Selectable<ApiKeyTable>, 'scopes'> {
  scopes: Scope[];
}

export interface CrudStore<TRecord extends { id: number }, TInsert, TPatch = Partial<TInsert>> {
  list(query: ListQuery): Promise<ListPage<TRecord>>;
  /** At once where the adapter reads synchronously (SQLite's prepared read; see MaybePromise). */
  get(id: number): MaybePromise<TRecord | undefined>;
  create(values: TInsert): Promise<TRecord>;
  /** Resolves undefined when the record does not exist. */
  update(id: number, patch: TPatch): Promise<TRecord | undefined>;
  delete(id: number): Promise<boolean>;
}

export interface NasStore extends CrudStore<NasRecord, NasInsert> {
  findByName(name: string): Promise<NasRecord | undefined>;
  /** Number of shares the NAS still has (deletion is refused while it has any). */
  shareCount(id: number): Promise<number>;
}

export interface PoolStore extends CrudStore<PoolRecord, PoolInsert> {
  findByName(name: string): Promise<PoolRecord | undefined>;
  /** Member share ids of each pool asked for, in id order. */
  memberIds(poolIds: readonly number[]): Promise<Map<number, number[]>>;
  /**
   * Makes exactly `shareIds` the members of the pool, atomically. Rejects with
   * not_found for an unknown share and conflict for a share in another pool.
   */
  setMembers(id: number, shareIds: readonly number[]): Promise<void>;
}

export interface NasShareStore extends CrudStore<NasShareRecord, NasShareInsert, NasSharePatch> {
  /** Every share with this name (names are unique within a NAS only). */
  findByName(name: string, nasId?: number): Promise<NasShareRecord[]>;
  count(): Promise<number>;
  /** Forgets the stored password of every share of a NAS; resolves how many had one. */
  clearPasswordsOfNas(nasId: number): Promise<number>;
  /** A test finished: the share's health and last test; resolves the share as it was before (undefined if gone). */
  recordTest(
    id: number,
    outcome: { status: 'completed' | 'failed'; at: string; capacity?: Omit<ShareCapacitySample, 'at'> },
  ): Promise<NasShareRecord | undefined>;
  /** A scan completed: the share's counts, its last scan, and a row of its history (and of its capacity history when read). */
  recordScan(id: number, scan: Omit<ShareScanRecord, 'id' | 'share_id'>, analytics?: ScanAnalytics): Promise<void>;
  /** One scan of a share with its analytics (null for a scan made before them); undefined when the share has no such scan. */
  getScan(id: number, scanId: number): Promise<(ShareScanRecord & { analytics: ScanAnalytics | null }) | undefined>;
  /** The share's capacity readings at or after `since`, oldest first, at most `limit`. */
  capacityHistory(id: number, since: string, limit: number): Promise<ShareCapacitySample[]>;
  /** Stores the forecast made from the capacity history (null: too little history). */
  saveForecast(id: number, forecast: ShareForecast | null): Promise<void>;
  /** Deletes at most `limit` capacity readings older than `before`, never a share's latest; resolves how many. */
  purgeCapacitySamples(before: string, limit: number): Promise<number>;
  /** The scan history of a share. */
  listScans(id: number, query: ListQuery): Promise<ListPage<ShareScanRecord>>;
  /** Deletes at most `limit` scan rows older than `before`, never a share's latest; resolves how many. */
  purgeScans(before: string, limit: number): Promise<number>;
  /** Every share's latest counts and its counts as of `since` (GET /statistics/capacity). */
  capacity(since: string): Promise<ShareCapacityRow[]>;
  /**
   * Every share with its NAS's and pool's names and what is known of it, by id, a page of at
   * most `pageSize` at a time (the /metrics gauges): a read of the shares table by its primary
   * key, joined to NAS and pool by theirs. In pages so that a scrape never holds every row at
   * once: 10,000 rows alive through a read were promoted out of V8's young generation and
   * cost a full collection a scrape. Each page is read when the one before it is done with,
   * not all in one snapshot: a share created or deleted meanwhile may or may not be in it.
   */
  gauges(pageSize: number): AsyncIterable<readonly ShareGaugeRow[]>;
}

/**
 * A share as `/metrics` shows it: its id and names, then what its latest test, scan and capacity
 * reading found (null: none yet; times in Unix seconds with their milliseconds, the base unit of
 * Prometheus). An array rather than an object: a scrape reads every share (10,000 of them), and
 * both drivers build an array a row at about half an object's cost. `shareGaugeField` names the
 * positions.
 */
export type ShareGaugeRow = readonly [
  id: number,
  name: string,
  nas_name: string,
  /** Null when the share is in no pool. */
  pool_name: string | null,
  health: NasShareRecord['health'],
  capacity_bytes: number | null,
  free_bytes: number | null,
  file_count: number,
  file_size_sum: number,
  last_tested_at: number | null,
  last_scanned_at: number | null,
  /** When the capacity forecast reaches the size; null when unknown or not growing. */
  full_at: number | null,
];

/** Where each value of a `ShareGaugeRow` is. */
export const shareGaugeField = {
  id: 0,
  name: 1,
  nas_name: 2,
  pool_name: 3,
  health: 4,
  capacity_bytes: 5,
  free_bytes: 6,
  file_count: 7,
  file_size_sum: 8,
  last_tested_at: 9,
  last_scanned_at: 10,
  full_at: 11,
} as const;

/**
 * A share's size now (its latest scan, null before any) and at the start of a period: its
 * latest scan at or before `since`, else its first scan after it (growth counts from when dms
 * first saw it).
 */
export interface ShareCapacityRow extends Pick<
  NasShareRecord,
  | 'id'
  | 'nas_id'
  | 'pool_id'
  | 'last_scanned_at'
  | 'file_count'
  | 'file_size_sum'
  | 'capacity_bytes'
  | 'free_bytes'
  | 'capacity_checked_at'
  | 'capacity_forecast'
> {
  base_file_count: number | null;
  base_file_size_sum: number | null;
  /** The scans those counts come from (the period's report compares their analytics). */
  base_scan_id: number | null;
  latest_scan_id: number | null;
}

export type TrapStore = CrudStore<TrapRecord, TrapInsert> & {
  /** Active targets only: the trap dispatcher's query. */
  listActive(): Promise<TrapRecord[]>;
};

export interface SnmpEngineBoot {
  engineId: string;
  /** snmpEngineBoots of this start (1 at the first). */
  boots: number;
}

export interface SnmpConfigStore {
  get(): Promise<SnmpConfig>;
  update(patch: Partial<SnmpConfig>): Promise<SnmpConfig>;
  /** Writes the agent's settings from the environment, only if none are stored yet (first start). */
  seedAgent(seed: AgentSeed): Promise<void>;
  /** The persisted snmpEngineID, generated and stored the first time. */
  ensureEngineId(generate: () => string): Promise<string>;
  /** Counts one more start of the engine (snmpEngineBoots, persisted) and returns it with the engine id. */
  bootEngine(generate: () => string): Promise<SnmpEngineBoot>;
}

export interface UserStore {
  /** `admin` is written as `role === 'admin'`. */
  create(values: { username: string; password_hash: string; role: string }): Promise<UserRecord>;
  findByUsername(username: string): Promise<UserRecord | undefined>;
  get(id: number): Promise<UserRecord | undefined>;
  list(query: ListQuery): Promise<ListPage<UserRecord>>;
  updatePasswordHash(id: number, passwordHash: string): Promise<boolean>;
  /** Gives a user a role (and `admin` with it); to take the admin role away, demoteUnlessLastAdmin. */
  setRole(id: number, role: string): Promise<boolean>;
  setDisabled(id: number, disabled: boolean): Promise<boolean>;
  /**
   * Gives an admin user the role `toRole` (not admin) unless no other admin would be left, in one
   * transaction that locks the admins it counts: concurrent demotions, on any replica, leave one
   * admin. Resolves false when it refused (the user is the last admin); true for a non-admin.
   */
  demoteUnlessLastAdmin(id: number, toRole: string): Promise<boolean>;
  countAdmins(): Promise<number>;
  delete(id: number): Promise<boolean>;
  count(): Promise<number>;
}

export interface UserTotpStore {
  get(userId: number): Promise<UserTotpRecord | undefined>;
  /** Starts (or starts again) an enrollment: any earlier unconfirmed secret is replaced. Refused (false) while one is enabled. */
  beginEnrollment(userId: number, sealedSecret: string): Promise<boolean>;
  /** Turns an enrollment on with its recovery codes, unless a code of `step` or later was accepted before. */
  enable(userId: number, step: number, recoveryCodes: string[]): Promise<boolean>;
  /**
   * Records that a code of `step` was accepted, unless one of that step or later was already:
   * resolves false for a replay, on any replica (a conditional update).
   */
  acceptStep(userId: number, step: number): Promise<boolean>;
  /** Takes one recovery code out, unless another request took it first: resolves false then. */
  useRecoveryCode(userId: number, digest: string): Promise<boolean>;
  delete(userId: number): Promise<boolean>;
}

export interface SessionStore {
  create(values: SessionRecord): Promise<SessionRecord>;
  /** The session and its user in one read: what every signed-in request costs. */
  findWithUser(id: string): MaybePromise<SessionWithUser | undefined>;
  get(id: string): Promise<SessionRecord | undefined>;
  /** Live sessions (not expired at `now`), optionally one user's. */
  list(query: ListQuery, now: string, userId?: number): Promise<ListPage<SessionRecord>>;
  touch(id: string, at: string): Promise<void>;
  delete(id: string): Promise<boolean>;
  deleteForUser(userId: number): Promise<number>;
  /** Removes sessions expired before `now`. */
  prune(now: string): Promise<number>;
}

export interface ApiKeyStore {
  create(values: Omit<ApiKeyRecord, 'id' | 'last_used_at'>): Promise<ApiKeyRecord>;
  /**
   * Creates a key unless its owner already holds `cap` keys: counted and inserted under a lock
   * per owner, so concurrent creates on any replica never pass the cap. Resolves undefined when
   * it refused. A key without an owner (made by the system) is created without a cap.
   */
  createWithinOwnerCap(values: Omit<ApiKeyRecord, 'id' | 'last_used_at'>, cap: number): Promise<ApiKeyRecord | undefined>;
  findByHash(keyHash: string): Promise<ApiKeyRecord | undefined>;
  get(id: number): Promise<ApiKeyRecord | undefined>;
  list(query: ListQuery): Promise<ListPage<ApiKeyRecord>>;
  update(id: number, patch: Partial<Pick<ApiKeyRecord, 'name' | 'scopes' | 'role' | 'expires_at'>>): Promise<ApiKeyRecord | undefined>;
  touch(id: number, at: string): Promise<void>;
  delete(id: number): Promise<boolean>;
}

export interface CorsRuleRecord extends Omit<Selectable<CorsRuleTable>, RowTimestamps | 'origins' | 'methods'> {
  origins: string[];
  methods: string[];
}
export type CorsRuleInsert = Omit<CorsRuleRecord, 'id'>;
export type CorsRuleStore = CrudStore<CorsRuleRecord, CorsRuleInsert> & {
  /** Every rule, for the CORS middleware's cache. */
  all(): Promise<CorsRuleRecord[]>;
};

/** A read-modify-write of one setting, with other keys that must change along with it. */
export interface SettingChange<T> {
  value: T;
  alsoSet?: Readonly<Record<string, unknown>>;
}

export interface SettingsStore {
  get<T>(key: string): Promise<T | undefined>;
  set<T>(key: string, value: T): Promise<void>;
  /**
   * Reads `key`, computes its next value and writes it (and `alsoSet`) in one transaction
   * holding the row: a concurrent update, on any replica, applies after this one, not over it.
   * Resolves the value written.
   */
  update<T>(key: string, change: (current: T | undefined) => SettingChange<T>): Promise<T>;
}

/**
 * What a storage adapter can do, as flags whose default is the safe answer: a flag added
 * later breaks no adapter, and the core never branches on an adapter's name.
 */
export interface StorageCapabilities {
  /**
   * One process owns the database at a time (SQLite behind the data dir's lock), so a job
   * left working at start was cut off by a crash. False: other replicas may be running it.
   */
  readonly exclusiveOwner: boolean;
}

export const defaultStorageCapabilities: StorageCapabilities = { exclusiveOwner: false };

/** Every store, as `Storage.transaction` hands them to its work. */
export interface Stores {
  readonly nas: NasStore;
  readonly pools: PoolStore;
  readonly shares: NasShareStore;
  readonly traps: TrapStore;
  readonly snmpConfig: SnmpConfigStore;
  readonly users: UserStore;
  readonly userTotp: UserTotpStore;
  readonly sessions: SessionStore;
  readonly roles: RoleStore;
  readonly apiKeys: ApiKeyStore;
  readonly settings: SettingsStore;
  readonly corsRules: CorsRuleStore;
  readonly jobs: JobStore;
  readonly auditEvents: AuditEventStore;
  readonly schedules: ScheduleStore;
  readonly alerts: AlertStore;
  readonly alertPending: AlertPendingStore;
  readonly notificationChannels: NotificationChannelStore;
  readonly notificationDeliveries: NotificationDeliveryStore;
  readonly oidc: OidcStore;
  readonly silences: SilenceStore;
  readonly notificationDigests: NotificationDigestStore;
}

export interface Storage extends Stores {
  readonly capabilities: StorageCapabilities;
  /**
   * Runs `work` in one transaction over every store: all its writes commit together or none
   * does (a change and its audit event). A store method that needs a transaction of its own
   * joins this one. Keep `work` short: on SQLite it holds the one write lock.
   */
  transaction<T>(work: (stores: Stores) => Promise<T>): Promise<T>;
  /** Runs pending versioned migrations. */
  migrate(): Promise<void>;
  /** Rejects with DomainError('unavailable') when the database cannot be reached. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
