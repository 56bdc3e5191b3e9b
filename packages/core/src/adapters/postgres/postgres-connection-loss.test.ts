import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toDomainError } from '../../errors/to-domain-error.js';
import type { Storage } from '../../ports/storage.js';
import { createTestDatabase, postgresOrSkip, type TestDatabase } from '../../testing/postgres-test-database.js';
import { openPostgresStorage } from './postgres-storage.js';

// Locally a missing server skips with the reason printed; on CI it fails.
const unreachable = await postgresOrSkip();

let database: TestDatabase | undefined;
let storage: Storage;
let observer: pg.Client;
beforeAll(async () => {
  if (unreachable) return;
  database = await createTestDatabase();
  storage = openPostgresStorage({ url: database.url });
  await storage.migrate();
  observer = new pg.Client({ connectionString: database.url });
  await observer.connect();
});
afterAll(async () => {
  await observer?.end();
  await storage?.close();
  await database?.drop();
});

const nas = (name: string) => ({ name, host: 'nas.example', type: 'local' as const, comment: null, price: null });

/** The backends of this test's own database (never another's) in `state`, but the observer's. */
async function backendsIn(state: string): Promise<number[]> {
  const { rows } = await observer.query<{ pid: number }>(
    'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and state = $1',
    [state],
  );
  return rows.map((row) => row.pid);
}

describe.skipIf(unreachable !== undefined)('a PostgreSQL connection lost mid-transaction', () => {
  it('issue 40 item B: a transaction whose connection is terminated between two statements fails as unavailable (503 with Retry-After), not internal, whatever its ROLLBACK does', async () => {
    const failure = await storage
      .transaction(async (stores) => {
        await stores.nas.create(nas('first'));
        // The transaction's own backend, idle in it now, is terminated; once it is gone the
        // client has seen its connection close, and the next statement and the ROLLBACK fail.
        const [pid] = await backendsIn('idle in transaction');
        await observer.query('select pg_terminate_backend($1)', [pid]);
        while ((await observer.query('select 1 from pg_stat_activity where pid = $1', [pid])).rowCount! > 0);
        await stores.nas.create(nas('second'));
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(failure, 'the transaction failed').toBeDefined();
    const answered = toDomainError(failure);
    expect({ code: answered.code, retryAfter: answered.retryAfter }, String(failure)).toEqual({ code: 'unavailable', retryAfter: 5 });
    // Nothing of it was stored, and the pool serves again on a new connection.
    expect(await storage.nas.findByName('first')).toBeUndefined();
    expect((await storage.nas.create(nas('after'))).name).toBe('after');
  });
});
