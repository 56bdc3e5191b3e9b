import type pg from 'pg';
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import type { AccessLimits, RateLimiter } from '../../ports/rate-limiter.js';
import { flexibleRateLimiter } from '../rate-limiter-flexible/flexible-rate-limiter.js';
import { rateLimitDefaults } from '../../defaults.js';

export interface PgRateLimiterOptions {
  pool: pg.Pool;
  limit: number;
  windowSeconds: number;
  /** Keeps the budgets apart in the shared table: replicas using one prefix share one budget. */
  keyPrefix: string;
  /** rate-limiter-flexible's table, created on first use (dms_rate_limits). */
  tableName?: string;
}

/**
 * The PostgreSQL adapter of the RateLimiter port, on rate-limiter-flexible: counters in one
 * table, so every replica draws on the same budget. Windows run on the system clock, as in
 * the memory adapter. Resolves once the table exists.
 */
export async function createPostgresRateLimiter(options: PgRateLimiterOptions): Promise<RateLimiter> {
  const { pool, limit, windowSeconds, keyPrefix, tableName = 'dms_rate_limits' } = options;
  const limiter = await new Promise<RateLimiterPostgres>((resolve, reject) => {
    const created: RateLimiterPostgres = new RateLimiterPostgres(
      { storeClient: pool, storeType: 'pool', tableName, keyPrefix, points: limit, duration: windowSeconds, clearExpiredByTimeout: true },
      (error?: unknown) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(created)),
    );
  });
  return flexibleRateLimiter(limiter, limit);
}

/**
 * Counters need not outlive a PostgreSQL crash (the worst is a fresh budget for the requests of
 * its last few hundred milliseconds), so their commits do not wait for the WAL flush: a consume
 * holds its counter row's lock for the update only, not for an fsync, and the replicas charging
 * one credential (every request of it, on whichever replica) queue for that row that much less.
 * Set on each session the pool opens from now on.
 */
function commitWithoutWaitingForFlush(pool: pg.Pool): void {
  // pg-pool awaits onConnect before it hands a new session out, so the SET is never a second
  // query beside the budget's own (a 'connect' listener's would be).
  const opened = pool.options.onConnect;
  pool.options.onConnect = async (client) => {
    await opened?.(client);
    await client.query('set synchronous_commit = off');
  };
}

/**
 * The production budgets in PostgreSQL, shared by the replicas (DMS_RATE_LIMIT_STORE=postgres):
 * the same windows and defaults as createMemoryAccessLimits. `pool` is the budgets' own (its
 * sessions commit without waiting for the WAL flush).
 */
export async function createPostgresAccessLimits(options: {
  pool: pg.Pool;
  requestsPerMinute?: number;
  failuresPerMinute?: number;
  tableName?: string;
}): Promise<AccessLimits> {
  const { pool, requestsPerMinute = rateLimitDefaults.requestsPerMinute, failuresPerMinute = rateLimitDefaults.authFailuresPerMinute, tableName } = options;
  commitWithoutWaitingForFlush(pool);
  const common = { pool, windowSeconds: 60, ...(tableName ? { tableName } : {}) };
  // One after the other: concurrent CREATE TABLE IF NOT EXISTS of one table can collide in PostgreSQL.
  const perCredential = await createPostgresRateLimiter({ ...common, limit: requestsPerMinute, keyPrefix: 'dms_credential' });
  const perAddress = await createPostgresRateLimiter({ ...common, limit: requestsPerMinute, keyPrefix: 'dms_address' });
  const authFailures = await createPostgresRateLimiter({ ...common, limit: failuresPerMinute, keyPrefix: 'dms_auth_failure' });
  return { perCredential, perAddress, authFailures };
}
