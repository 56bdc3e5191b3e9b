import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresAccessLimits, createPostgresRateLimiter } from './pg-rate-limiter.js';
import { createResilientPool } from './pg-pool.js';
import { createTestDatabase, postgresOrSkip, type TestDatabase } from '../../testing/postgres-test-database.js';

// Locally a missing server skips with the reason printed; on CI it fails.
const unreachable = await postgresOrSkip();

// The service's pools (createResilientPool): pool.end() resolves before its sessions have closed,
// and the forced drop after the tests can terminate one, which a pool without listeners throws.
const testPool = (connectionString: string, max?: number) => createResilientPool({ connectionString, ...(max === undefined ? {} : { max }) });

describe.skipIf(unreachable)('PostgreSQL rate limiter: one budget for every replica', () => {
  let database: TestDatabase | undefined;
  // one pool per "replica": nothing is shared but the database
  const pools: pg.Pool[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    pools.push(testPool(database.url), testPool(database.url));
  });
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.end()));
    await database?.drop();
  });

  it('shares a budget between two limiters over one database', async () => {
    const [poolA, poolB] = pools as [pg.Pool, pg.Pool];
    const a = await createPostgresRateLimiter({ pool: poolA, limit: 3, windowSeconds: 60, keyPrefix: 'shared' });
    const b = await createPostgresRateLimiter({ pool: poolB, limit: 3, windowSeconds: 60, keyPrefix: 'shared' });
    expect(await a.consume('client')).toMatchObject({ allowed: true, limit: 3, remaining: 2 });
    expect(await b.consume('client')).toMatchObject({ allowed: true, remaining: 1 });
    expect(await a.consume('client')).toMatchObject({ allowed: true, remaining: 0 });
    const refused = await b.consume('client');
    expect(refused).toMatchObject({ allowed: false, remaining: 0 });
    expect(refused.resetMs).toBeGreaterThan(0);
    expect(refused.resetMs).toBeLessThanOrEqual(60_000);
    expect(await a.peek('client')).toMatchObject({ allowed: false, remaining: 0 });
    expect(await a.peek('someone-else')).toEqual({ allowed: true, limit: 3, remaining: 3, resetMs: 0 });
    await b.reset('client');
    expect(await a.consume('client')).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('keeps the access budgets apart and gives them the production sizes', async () => {
    const [poolA, poolB] = pools as [pg.Pool, pg.Pool];
    const a = await createPostgresAccessLimits({ pool: poolA, requestsPerMinute: 5, failuresPerMinute: 2 });
    const b = await createPostgresAccessLimits({ pool: poolB, requestsPerMinute: 5, failuresPerMinute: 2 });
    expect([a.perCredential.limit, a.perAddress.limit, a.authFailures.limit]).toEqual([5, 5, 2]);
    await a.authFailures.consume('198.51.100.1');
    expect(await b.authFailures.consume('198.51.100.1')).toMatchObject({ allowed: true, remaining: 0 });
    expect(await b.authFailures.consume('198.51.100.1')).toMatchObject({ allowed: false });
    // the same key in another budget is untouched
    expect(await b.perAddress.peek('198.51.100.1')).toMatchObject({ allowed: true, remaining: 5 });
  });

  it("commits the budgets' counters without waiting for the WAL flush, on every session of their pool", async () => {
    const pool = testPool(database!.url, 2);
    try {
      const limits = await createPostgresAccessLimits({ pool, requestsPerMinute: 5 });
      // Both sessions at once: the one the tables were created on and a second one.
      const [first, second] = await Promise.all([pool.connect(), pool.connect()]);
      try {
        for (const client of [first, second]) expect((await client.query('show synchronous_commit')).rows).toEqual([{ synchronous_commit: 'off' }]);
      } finally {
        first.release();
        second.release();
      }
      expect(await limits.perCredential.consume('key:1')).toMatchObject({ allowed: true, remaining: 4 });
    } finally {
      await pool.end();
    }
  });
});
