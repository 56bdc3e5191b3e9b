import { resolve } from 'node:path';
import { environmentDefaults as d, serverDefaults } from '@dms/core';
import { trustedProxyList } from '../rate-limit/client-address.js';
import { defaultLogFormat, logFormats, logLevels, type LogFormat } from '../http/logger.js';
import type { HttpLimits } from './http-limits.js';

/** The operator contract's environment (the README's configuration table), read once at start. */
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
  const store = oneOf(env, 'DMS_RATE_LIMIT_STORE', ['memory', 'postgres'] as const, d.DMS_RATE_LIMIT_STORE);
  if (store === 'postgres' && !env['DMS_DATABASE_URL'])
    throw new Error('DMS_RATE_LIMIT_STORE=postgres needs DMS_DATABASE_URL (the budgets live in that database)');
  return store;
}

function trustedProxies(env: NodeJS.ProcessEnv): string[] {
  const entries = (env['DMS_TRUSTED_PROXIES'] ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  try {
    trustedProxyList(entries);
  } catch (error) {
    throw new Error(`DMS_TRUSTED_PROXIES must be comma-separated IP addresses or CIDR blocks: ${(error as Error).message}`);
  }
  return entries;
}

function integer<F extends number | undefined>(env: NodeJS.ProcessEnv, name: string, fallback: F, min: number, max: number): number | F {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer between ${min} and ${max}, got '${text}'`);
  }
  return value;
}

function httpLimits(env: NodeJS.ProcessEnv, trusted: string[]): HttpLimits {
  const requestTimeoutMs = integer(env, 'DMS_REQUEST_TIMEOUT_MS', d.DMS_REQUEST_TIMEOUT_MS, 1_000, 3_600_000);
  const headersTimeoutMs = integer(env, 'DMS_HEADERS_TIMEOUT_MS', Math.min(d.DMS_HEADERS_TIMEOUT_MS, requestTimeoutMs), 100, 600_000);
  // Node refuses a headers timeout longer than the request's: the headers are part of it.
  if (headersTimeoutMs > requestTimeoutMs)
    throw new Error(`DMS_HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not exceed DMS_REQUEST_TIMEOUT_MS (${requestTimeoutMs})`);
  const maxConnections = integer(env, 'DMS_MAX_CONNECTIONS', d.DMS_MAX_CONNECTIONS, 1, 1_000_000);
  return {
    maxConnections,
    maxConnectionsPerAddress: integer(env, 'DMS_MAX_CONNECTIONS_PER_ADDRESS', Math.min(d.DMS_MAX_CONNECTIONS_PER_ADDRESS, maxConnections), 1, 1_000_000),
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs: integer(env, 'DMS_KEEP_ALIVE_TIMEOUT_MS', d.DMS_KEEP_ALIVE_TIMEOUT_MS, 100, 600_000),
    trustedProxies: trusted,
  };
}

/**
 * `logsToTerminal`: whether standard output, where the log goes, is a terminal; it picks the log
 * format when DMS_LOG_FORMAT is unset.
 */
export function readConfig(env: NodeJS.ProcessEnv = process.env, logsToTerminal = process.stdout.isTTY === true): ServerConfig {
  // An empty variable counts as unset, as with `||`: the defaults are environmentDefaults (@dms/core).
  const dataDir = resolve(env['DMS_DATA_DIR'] || d.DMS_DATA_DIR);
  const trusted = trustedProxies(env);
  return {
    host: env['DMS_HOST'] || d.DMS_HOST,
    port: integer(env, 'DMS_PORT', d.DMS_PORT, 0, 65535),
    dataDir,
    databaseUrl: env['DMS_DATABASE_URL'] || d.DMS_DATABASE_URL,
    pgPoolMax: integer(env, 'DMS_PG_POOL_MAX', d.DMS_PG_POOL_MAX, 1, 1000),
    pgStatementTimeoutMs: integer(env, 'DMS_PG_STATEMENT_TIMEOUT_MS', d.DMS_PG_STATEMENT_TIMEOUT_MS, 0, 3_600_000),
    adminPassword: env['DMS_ADMIN_PASSWORD'] || d.DMS_ADMIN_PASSWORD,
    secretKey: env['DMS_SECRET_KEY'] || d.DMS_SECRET_KEY,
    snmpAgentPort: integer(env, 'DMS_SNMP_AGENT_PORT', d.DMS_SNMP_AGENT_PORT, 1, 65535),
    logLevel: oneOf(env, 'DMS_LOG_LEVEL', logLevels, d.DMS_LOG_LEVEL),
    logFormat: oneOf(env, 'DMS_LOG_FORMAT', logFormats, defaultLogFormat(logsToTerminal)),
    localRoots: (env['DMS_LOCAL_ROOTS'] || resolve(dataDir, serverDefaults.localSharesDir))
      .split(':')
      .filter(Boolean)
      .map((root) => resolve(root)),
    driverTimeoutMs: integer(env, 'DMS_DRIVER_TIMEOUT_MS', d.DMS_DRIVER_TIMEOUT_MS, 100, 600_000),
    jobConcurrency: integer(env, 'DMS_JOB_CONCURRENCY', d.DMS_JOB_CONCURRENCY, 1, 64),
    rateLimitPerMinute: integer(env, 'DMS_RATE_LIMIT_PER_MINUTE', d.DMS_RATE_LIMIT_PER_MINUTE, 1, 1_000_000),
    rateLimitStore: rateLimitStore(env),
    snmpEnterpriseOid: env['DMS_SNMP_ENTERPRISE_OID'] || d.DMS_SNMP_ENTERPRISE_OID,
    trustedProxies: trusted,
    http: httpLimits(env, trusted),
    shutdownTimeoutMs: integer(env, 'DMS_SHUTDOWN_TIMEOUT_MS', d.DMS_SHUTDOWN_TIMEOUT_MS, 100, 3_600_000),
    allowDamagedDatabase: oneOf(env, 'DMS_ALLOW_DAMAGED_DATABASE', ['0', '1'] as const, d.DMS_ALLOW_DAMAGED_DATABASE) === '1',
  };
}
