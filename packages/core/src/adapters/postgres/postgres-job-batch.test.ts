import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Storage } from '../../ports/storage.js';
import type { JobOutcome } from '../../ports/job-store.js';
import { openPostgresStorage } from './postgres-storage.js';
import { createTestDatabase, postgresOrSkip, type TestDatabase } from '../../testing/postgres-test-database.js';

// Locally a missing server skips with the reason printed; on CI it fails.
const unreachable = await postgresOrSkip();

let database: TestDatabase | undefined;
let storage: Storage;
beforeAll(async () => {
  if (!unreachable) database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});
beforeEach(async () => {
  if (!database) return;
  storage = openPostgresStorage({ url: database.url, poolMax: 4 });
  await storage.migrate();
  await database.query('truncate jobs');
});
afterEach(async () => {
  await storage?.close();
});

/** Statements the pg clients of this process send that claim jobs (the batch statement). */
async function claimStatements<T>(work: () => Promise<T>): Promise<{ result: T; statements: number }> {
  const original = pg.Client.prototype.query;
  let statements = 0;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const config = args[0] as { text?: string } | string;
    const text = typeof config === 'string' ? config : (config?.text ?? '');
    if (text.includes('claimed as (')) statements += 1;
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    return { result: await work(), statements };
  } finally {
    pg.Client.prototype.query = original;
  }
}

const at = (s: number) => new Date(Date.UTC(2026, 0, 4, 0, 0, s)).toISOString();
const enqueue = (id: string, s: number, requested_by = 'system') =>
  storage.jobs.enqueue({ id, kind: 'share_test', nas_id: 1, share_id: null, total: 1, payload_enc: 'v1:x', created_at: at(s), requested_by });
const done = (message: string): JobOutcome => ({ status: 'completed', message, progress: 1, total: 1, steps: [], result: null });

describe.skipIf(unreachable !== undefined)('postgres job batches (issue 27)', () => {
  it('claims made together share one statement and are taken in the order single claims would take them', async () => {
    for (const [i, requester] of ['user:a', 'user:a', 'user:a', 'user:b', 'user:a'].entries()) await enqueue(`fair-${i}`, i, requester);
    const { result, statements } = await claimStatements(() => Promise.all(['w1', 'w2', 'w3'].map((worker) => storage.jobs.claim(worker, at(10)))));
    expect(statements).toBe(1);
    // One after another: user:a's oldest, then user:b's (user:a has one working), then user:a's next.
    expect(result.map((job) => job?.id)).toEqual(['fair-0', 'fair-3', 'fair-1']);
    expect(result.map((job) => job?.worker_id)).toEqual(['w1', 'w2', 'w3']);
    expect(await storage.jobs.get('fair-3')).toMatchObject({ status: 'working', worker_id: 'w2', started_at: at(10), heartbeat_at: at(10) });
    expect((await storage.jobs.countByStatus()).queued).toBe(2);
  });

  it('finishes of concurrent workers commit together with their next claims; a finish applies only to its own working job', async () => {
    for (let i = 0; i < 6; i++) await enqueue(`chain-${i}`, i);
    const first = await Promise.all(['a', 'b', 'c'].map((worker) => storage.jobs.claim(worker, at(10))));
    // Another replica failed chain-2 as stale meanwhile: its old worker's finish must not apply.
    expect(first.map((job) => job?.id)).toEqual(['chain-0', 'chain-1', 'chain-2']);
    await database!.query(`update jobs set status = 'failed', message = 'interrupted' where id = 'chain-2'`);
    const { result, statements } = await claimStatements(() =>
      Promise.all(first.map((job, i) => storage.jobs.finishAndClaim(job!.id, job!.worker_id!, done(`done ${i}`), at(20 + i)))),
    );
    expect(statements).toBe(1);
    expect(result.map((job) => [job?.id, job?.worker_id])).toEqual([
      ['chain-3', 'a'],
      ['chain-4', 'b'],
      ['chain-5', 'c'],
    ]);
    expect(await storage.jobs.get('chain-0')).toMatchObject({ status: 'completed', message: 'done 0', finished_at: at(20), payload_enc: null });
    expect(await storage.jobs.get('chain-1')).toMatchObject({ status: 'completed', message: 'done 1', finished_at: at(21) });
    expect(await storage.jobs.get('chain-2')).toMatchObject({ status: 'failed', message: 'interrupted' });
    expect(await storage.jobs.countByStatus()).toEqual({ queued: 0, working: 3, completed: 2, failed: 1 });
  });

  it('a finish the database refuses fails only its own worker: the batch is retried turn by turn', async () => {
    for (let i = 0; i < 4; i++) await enqueue(`bad-${i}`, i);
    const held = await Promise.all(['a', 'b'].map((worker) => storage.jobs.claim(worker, at(10))));
    // PostgreSQL text cannot hold NUL: this outcome fails its statement (not "unavailable").
    const results = await Promise.allSettled([
      storage.jobs.finishAndClaim(held[0]!.id, 'a', done('bad \u0000 message'), at(20)),
      storage.jobs.finishAndClaim(held[1]!.id, 'b', done('fine'), at(20)),
    ]);
    expect(results[0]!.status).toBe('rejected');
    expect(results[1]).toMatchObject({ status: 'fulfilled', value: { worker_id: 'b', status: 'working' } });
    expect(await storage.jobs.get(held[0]!.id)).toMatchObject({ status: 'working', worker_id: 'a' });
    expect(await storage.jobs.get(held[1]!.id)).toMatchObject({ status: 'completed', message: 'fine' });
  });

  it('race: two stores (replicas) claiming at once take each job exactly once', async () => {
    const other = openPostgresStorage({ url: database!.url, poolMax: 4 });
    try {
      for (let i = 0; i < 40; i++) await enqueue(`race-${String(i).padStart(2, '0')}`, i, `user:${i % 3}`);
      const ran: string[] = [];
      const worker = async (store: Storage, name: string) => {
        let job = await store.jobs.claim(name, at(50));
        while (job) {
          ran.push(job.id);
          job = await store.jobs.finishAndClaim(job.id, name, done(name), at(51));
        }
      };
      await Promise.all([storage, other].flatMap((store, s) => ['w1', 'w2', 'w3', 'w4'].map((name) => worker(store, `${s}-${name}`))));
      expect(ran.sort()).toEqual(Array.from({ length: 40 }, (_, i) => `race-${String(i).padStart(2, '0')}`));
      expect(await storage.jobs.countByStatus()).toEqual({ queued: 0, working: 0, completed: 40, failed: 0 });
    } finally {
      await other.close();
    }
  });
});
