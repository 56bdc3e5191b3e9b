import type { CoreOptions } from '../services/create-core.js';
import type { DmsLog } from './log.js';

/*
 * Replica coordination: what several dms processes on one PostgreSQL database share, and where
 * each part lives. Storage stays the source of truth; what crosses between replicas only says
 * "read it again".
 *
 * - Events (configuration_changed, credentials_changed, job_changed) reach every replica over
 *   LISTEN/NOTIFY: adapters/postgres/pg-event-bus.ts (why not an outbox: there), its message
 *   format adapters/postgres/pg-event-wire.ts. A trap is sent once, by the replica where its
 *   event happened (events/trap-dispatcher.ts sees only local events).
 * - Rate-limit budgets (DMS_RATE_LIMIT_STORE=postgres) in one shared table:
 *   adapters/postgres/pg-rate-limiter.ts.
 * - Jobs: any replica claims a queued job with `for update skip locked`
 *   (adapters/postgres/postgres-dialect-quirks.ts, claimLockClause), keeps it alive with a
 *   heartbeat, and fails a job whose heartbeat stopped (jobs/job-engine.ts, staleAfterMs).
 * - Migrations run once under a session-wide advisory lock; a replica refuses a database a
 *   newer dms migrated: adapters/postgres/postgres-storage.ts.
 * - Share list caches are checked against a version a trigger bumps on every share write:
 *   adapters/postgres/postgres-migrations.ts, adapters/kysely/kysely-list-cache.ts.
 * - No data-dir lock (runtime/data-dir-lock.ts is SQLite's one-service-per-file rule).
 */

/**
 * Rate limits per credential and per address: `memory` (this process; the default) or
 * `postgres` (shared by the replicas of one database, DMS_RATE_LIMIT_STORE).
 */
export interface RateLimitStore {
  store: 'memory' | 'postgres';
  requestsPerMinute?: number;
}

/**
 * What replicas on one PostgreSQL database share beyond the storage: events over LISTEN/NOTIFY
 * (configuration changes, credential changes, job signals reach every replica), and with
 * `rateLimits.store` 'postgres' the rate-limit budgets. The PostgreSQL adapter is loaded here
 * only, so a SQLite service never loads `pg`.
 */
export async function replicaCoordination(
  url: string,
  rateLimits: RateLimitStore | undefined,
  log: DmsLog,
  cleanups: Array<() => Promise<void> | void>,
): Promise<Pick<CoreOptions, 'events' | 'limits'>> {
  const postgres = await import('../adapters/postgres/index.js');
  const events = await postgres.PgEventBus.open({ connection: url, onError: (error) => log.warn({ err: error }, 'replica event channel') });
  cleanups.push(() => events.close());
  if (rateLimits?.store !== 'postgres') return { events };
  const pool = postgres.createResilientPool({ connectionString: url, max: 2 });
  cleanups.push(() => pool.end());
  const { requestsPerMinute } = rateLimits;
  const limits = await postgres.createPostgresAccessLimits({ pool, ...(requestsPerMinute === undefined ? {} : { requestsPerMinute }) });
  return { events, limits };
}
