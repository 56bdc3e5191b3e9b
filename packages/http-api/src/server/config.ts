import { resolve } from 'node:path';
import { trustedProxyList } from '../rate-limit/client-address.js';
import { logFormats, logLevels, type LogFormat } from '../http/logger.js';
import { defaultHttpLimits, type HttpLimits } from './http-limits.js';

/** The operator contract's environment (DESIGN §4), read once at start. */
export interface ServerConfig {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  /** PostgreSQL only: connections per process (DMS_PG_POOL_MAX) and statement timeout (DMS_PG_STATEMENT_TIMEOUT_MS). */
  pgPoolMax: number;
  pgStatementTimeoutMs: number;
  adminPassword: string | undefined;
  secretKey: string | undefined;
  snmpAgentPort: number | undefined;
  logLevel: string;
  logFormat: LogFormat;
  localRoots: string[];
  driverTimeoutMs: number;
  jobConcurrency: number;
  rateLimitPerMinute: number;
  /** Where the rate-limit budgets live (DMS_RATE_LIMIT_STORE): this process, or PostgreSQL for every replica. */
  rateLimitStore: 'memory' | 'postgres';
  snmpEnterpriseOid: string;
  /** Proxies whose X-Forwarded-For is believed (DMS_TRUSTED_PROXIES); none by default. */
  trustedProxies: string[];
  /** Connection caps and request timeouts of the listener (DMS_MAX_CONNECTIONS, DMS_HEADERS_TIMEOUT_MS, …). */
  http: HttpLimits;
  /**
   * How long a stop (SIGTERM, SIGINT) may take (DMS_SHUTDOWN_TIMEOUT_MS): requests in flight and
   * running jobs get most of it, then what remains is forced, and the process exits within it.
   */
  shutdownTimeoutMs: number;
  /** Serve a SQLite database that fails its start-up integrity check (DMS_ALLOW_DAMAGED_DATABASE=1). */
  allowDamagedDatabase: boolean;
}

function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, allowed: readonly T[], fallback: T): T {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  if (!(allowed as readonly string[]).includes(text)) throw new Error(`${name} must be one of ${allowed.join(', ')}, got '${text}'`);
  return text as T;
}

function rateLimitStore(env: NodeJS.ProcessEnv): 'memory' | 'postgres' {
  const store = oneOf(env, 'DMS_RATE_LIMIT_STORE', ['memory', 'postgres'] as const, 'memory');
  if (store === 'postgres' && !env['DMS_DATABASE_URL']) throw new Error('DMS_RATE_LIMIT_STORE=postgres needs DMS_DATABASE_URL (the budgets live in that database)');
  return store;
}

function trustedProxies(env: NodeJS.ProcessEnv): string[] {
  const entries = (env['DMS_TRUSTED_PROXIES'] ?? '').split(',').map((entry) => entry.trim()).filter(Boolean);
  try {
    trustedProxyList(entries);
  } catch (error) {
    throw new Error(`DMS_TRUSTED_PROXIES must be comma-separated IP addresses or CIDR blocks: ${(error as Error).message}`);
  }
  return entries;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer between ${min} and ${max}, got '${text}'`);
  }
  return value;
}

function httpLimits(env: NodeJS.ProcessEnv, trusted: string[]): HttpLimits {
  const d = defaultHttpLimits;
  const requestTimeoutMs = integer(env, 'DMS_REQUEST_TIMEOUT_MS', d.requestTimeoutMs, 1_000, 3_600_000);
  const headersTimeoutMs = integer(env, 'DMS_HEADERS_TIMEOUT_MS', Math.min(d.headersTimeoutMs, requestTimeoutMs), 100, 600_000);
  // Node refuses a headers timeout longer than the request's: the headers are part of it.
  if (headersTimeoutMs > requestTimeoutMs) throw new Error(`DMS_HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not exceed DMS_REQUEST_TIMEOUT_MS (${requestTimeoutMs})`);
  const maxConnections = integer(env, 'DMS_MAX_CONNECTIONS', d.maxConnections, 1, 1_000_000);
  return {
    maxConnections,
    maxConnectionsPerAddress: integer(env, 'DMS_MAX_CONNECTIONS_PER_ADDRESS', Math.min(d.maxConnectionsPerAddress, maxConnections), 1, 1_000_000),
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs: integer(env, 'DMS_KEEP_ALIVE_TIMEOUT_MS', d.keepAliveTimeoutMs, 100, 600_000),
    trustedProxies: trusted,
  };
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const dataDir = resolve(env['DMS_DATA_DIR'] || './data');
  const agentPort = env['DMS_SNMP_AGENT_PORT'];
  const trusted = trustedProxies(env);
  return {
    host: env['DMS_HOST'] || '127.0.0.1',
    port: integer(env, 'DMS_PORT', 8080, 0, 65535),
    dataDir,
    databaseUrl: env['DMS_DATABASE_URL'] || undefined,
    pgPoolMax: integer(env, 'DMS_PG_POOL_MAX', 10, 1, 1000),
    pgStatementTimeoutMs: integer(env, 'DMS_PG_STATEMENT_TIMEOUT_MS', 30_000, 0, 3_600_000),
    adminPassword: env['DMS_ADMIN_PASSWORD'] || undefined,
    secretKey: env['DMS_SECRET_KEY'] || undefined,
    snmpAgentPort: agentPort ? integer(env, 'DMS_SNMP_AGENT_PORT', 161, 1, 65535) : undefined,
    logLevel: oneOf(env, 'DMS_LOG_LEVEL', logLevels, 'info'),
    logFormat: oneOf(env, 'DMS_LOG_FORMAT', logFormats, 'json'),
    localRoots: (env['DMS_LOCAL_ROOTS'] || resolve(dataDir, 'shares')).split(':').filter(Boolean).map((root) => resolve(root)),
    driverTimeoutMs: integer(env, 'DMS_DRIVER_TIMEOUT_MS', 10_000, 100, 600_000),
    jobConcurrency: integer(env, 'DMS_JOB_CONCURRENCY', 4, 1, 64),
    rateLimitPerMinute: integer(env, 'DMS_RATE_LIMIT_PER_MINUTE', 600, 1, 1_000_000),
    rateLimitStore: rateLimitStore(env),
    snmpEnterpriseOid: env['DMS_SNMP_ENTERPRISE_OID'] || '1.3.6.1.4.1.61999',
    trustedProxies: trusted,
    http: httpLimits(env, trusted),
    shutdownTimeoutMs: integer(env, 'DMS_SHUTDOWN_TIMEOUT_MS', 10_000, 100, 3_600_000),
    allowDamagedDatabase: oneOf(env, 'DMS_ALLOW_DAMAGED_DATABASE', ['0', '1'] as const, '0') === '1',
  };
}
