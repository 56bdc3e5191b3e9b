/*
 * Every default an operator can see or change, declared once: the REST server's environment
 * parsing (http-api `server/config.ts`), the desktop app, openDms and the services and adapters
 * that fall back to a value all read it from here. README's configuration table is checked
 * against `environmentDefaults` (defaults.test.ts), so the two cannot drift.
 *
 * Pure data, no imports: the desktop renderer and the SDK generator may load it.
 * Internal tunables that no operator sets (cache lifetimes, poll ticks, SNMP agent work
 * budgets) stay beside the code they tune.
 */

/** Where `dms serve` listens and keeps its files, how it logs, how long it takes to stop. */
export const serverDefaults = {
  host: '127.0.0.1',
  port: 8080,
  dataDir: './data',
  /** `local` shares must lie under this folder of the data dir unless DMS_LOCAL_ROOTS says otherwise. */
  localSharesDir: 'shares',
  logLevel: 'info',
  logFormat: 'json',
  /** docs/api.md#status-codes: a body over it is 413. */
  maxBodyBytes: 1024 * 1024,
  shutdownTimeoutMs: 10_000,
} as const;

/** What one HTTP listener lets its clients hold (finding 20.14; http-api `server/http-limits.ts`). */
export const httpDefaults = {
  maxConnections: 1024,
  maxConnectionsPerAddress: 256,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  keepAliveTimeoutMs: 5_000,
} as const;

/** PostgreSQL connections per process and the statement timeout (`0`: none). */
export const postgresDefaults = {
  poolMax: 10,
  statementTimeoutMs: 30_000,
} as const;

/** Budgets per one-minute window, per credential and per client address, and the login lockout. */
export const rateLimitDefaults = {
  store: 'memory',
  requestsPerMinute: 600,
  authFailuresPerMinute: 10,
} as const;

/** The job engine of one process, and the queue bounds every replica applies (settings). */
export const jobDefaults = {
  concurrency: 4,
  /** Bound of every network step of a share test or scan. */
  driverTimeoutMs: 10_000,
  heartbeatMs: 2_000,
  /** A working job whose heartbeat is this many beats old is taken as crashed. */
  staleAfterHeartbeats: 3,
  /** Setting `job_retention_days`: finished jobs are kept this long (issue 22: 30 days, where the first design said 24 h). */
  retentionDays: 30,
  /** How often an idle worker looks for jobs enqueued by another replica. */
  pollMs: 500,
  /** Setting `job_queue_max_per_principal`: unfinished jobs of one user with all its keys (429 beyond). */
  queueMaxPerPrincipal: 32,
  /** Setting `job_queue_max_total`: unfinished jobs of the whole service (503 beyond). */
  queueMaxTotal: 256,
} as const;

/** The audit log (settings `audit_retention_days`, `failed_sign_in_retention_days`). */
export const auditDefaults = {
  retentionDays: 365,
  /** Failed sign-ins are unauthenticated writes: kept a month, not a year (decision 112). */
  failedSignInRetentionDays: 30,
  /** Failed sign-ins are one event per client (an IPv6 one by its /64) and UTC hour, for at most this many clients an hour; one overflow event counts the failures of every other client. */
  failedSignInClientsPerHour: 1_000,
  /** Distinct user names kept per event (a sample: the first tried), each cut to `failedSignInNameChars`. */
  failedSignInNamesKept: 10,
  failedSignInNameChars: 64,
} as const;

/** What keeps watch (settings `scan_retention_days`, `alert_retention_days`). */
export const watchDefaults = {
  scanRetentionDays: 365,
  alertRetentionDays: 30,
  /** Setting `schedule_min_interval_seconds`: the closest two runs of a schedule may be (an admin may lower it). */
  scheduleMinIntervalSeconds: 60,
  /** A share's capacity readings (its history, for the forecast); a share's latest stays. */
  capacityRetentionDays: 90,
} as const;

/**
 * Capacity (issue 42): the alert thresholds (`/alert_settings` rows of `share_nearly_full` and
 * `share_full_soon`) and the days the forecast looks back over.
 */
export const capacityDefaults = {
  warningPercent: 80,
  criticalPercent: 90,
  fullSoonDays: 30,
  forecastDays: 30,
} as const;

/** Notification channels (issue 44, docs/decisions/168-notification-deliveries.md). */
export const notificationDefaults = {
  /** How often the dispatcher looks for deliveries due (queued by another replica, or due again). */
  pollMs: 1_000,
  /** How long a claimed delivery is its dispatcher's: well past any send's timeout. */
  leaseMs: 60_000,
  /** Every send (an HTTP POST, an SMTP exchange) is bounded by this. */
  sendTimeoutMs: 10_000,
  /** The first retry's wait; each one doubles it, up to maxBackoffMs, jittered. */
  firstBackoffMs: 5_000,
  maxBackoffMs: 60 * 60 * 1000,
  /** Deliveries (each the head of its channel) claimed per round. */
  claimBatch: 50,
  /** Most deliveries of one channel sent one after the other in a round, its head's included. */
  runLength: 50,
  /** Attempts of a run written in one transaction (a failure is written at once). */
  recordBatch: 16,
  /** Failed attempts in a row before a channel raises notification_channel_failing. */
  failingAfter: 3,
  /** How often an Alertmanager channel's open alerts are sent again (its resolve_timeout is 5 min by default). */
  alertmanagerRefreshMs: 60_000,
  /** Most open alerts sent again per Alertmanager channel and refresh. */
  alertmanagerRefreshMax: 1_000,
  /** Most events a digest lists; the rest are counted (docs/decisions/173-notification-digests.md). */
  digestMaxEvents: 500,
} as const;

/** JWT mode and API keys (settings). */
export const authDefaults = {
  jwtTtlSeconds: 3600,
  apiKeysMaxPerUser: 100,
} as const;

/**
 * Password checks in flight (argon2 keeps a core busy for each): at most `maxConcurrency`, and
 * one core fewer than the machine has, so one stays free for the event loop.
 */
export const hasherDefaults = {
  maxConcurrency: 2,
  maxWaiting: 256,
  maxWaitingPerAddress: 32,
} as const;

/** SNMP traps and agent. The enterprise arc is a placeholder a site replaces with its own. */
export const snmpDefaults = {
  enterpriseOid: '1.3.6.1.4.1.61999',
} as const;

/** Every list (docs/decisions/014-one-list-contract.md). */
export const listDefaults = {
  pageSize: 20,
  maxPageSize: 100,
  /**
   * The audit and job lists count their matches at most this far past the page's end; beyond,
   * `count` is a lower bound and the answer says so (docs/decisions/186-history-list-counts.md).
   */
  historyCountWindow: 10_000,
} as const;

/**
 * What each `DMS_*` variable means when it is unset or empty, in README's words: a value, or
 * `undefined` where nothing takes its place (the feature is off, or a value is generated).
 */
export const environmentDefaults = {
  DMS_HOST: serverDefaults.host,
  DMS_PORT: serverDefaults.port,
  DMS_DATA_DIR: serverDefaults.dataDir,
  DMS_DATABASE_URL: undefined,
  DMS_PG_POOL_MAX: postgresDefaults.poolMax,
  DMS_PG_STATEMENT_TIMEOUT_MS: postgresDefaults.statementTimeoutMs,
  DMS_RATE_LIMIT_STORE: rateLimitDefaults.store,
  DMS_ADMIN_PASSWORD: undefined,
  DMS_SECRET_KEY: undefined,
  DMS_LOCAL_ROOTS: `<data dir>/${serverDefaults.localSharesDir}`,
  DMS_DRIVER_TIMEOUT_MS: jobDefaults.driverTimeoutMs,
  DMS_JOB_CONCURRENCY: jobDefaults.concurrency,
  DMS_SNMP_AGENT_PORT: undefined,
  DMS_SNMP_ENTERPRISE_OID: snmpDefaults.enterpriseOid,
  DMS_LOG_LEVEL: serverDefaults.logLevel,
  // `pretty` on a terminal, else serverDefaults.logFormat (http-api defaultLogFormat).
  DMS_LOG_FORMAT: undefined,
  DMS_RATE_LIMIT_PER_MINUTE: rateLimitDefaults.requestsPerMinute,
  DMS_TRUSTED_PROXIES: undefined,
  DMS_MAX_CONNECTIONS: httpDefaults.maxConnections,
  DMS_MAX_CONNECTIONS_PER_ADDRESS: httpDefaults.maxConnectionsPerAddress,
  DMS_HEADERS_TIMEOUT_MS: httpDefaults.headersTimeoutMs,
  DMS_REQUEST_TIMEOUT_MS: httpDefaults.requestTimeoutMs,
  DMS_KEEP_ALIVE_TIMEOUT_MS: httpDefaults.keepAliveTimeoutMs,
  DMS_SHUTDOWN_TIMEOUT_MS: serverDefaults.shutdownTimeoutMs,
  DMS_ALLOW_DAMAGED_DATABASE: '0',
} as const satisfies Record<`DMS_${string}`, string | number | undefined>;
