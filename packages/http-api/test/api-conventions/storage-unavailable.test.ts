import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { mountSmallDisk } from '@dms/core/testing';
import { createTestApp, onlyOn, type TestApp } from '../../src/testing/test-app.js';

/**
 * Issue 40 fault B: storage that cannot serve is 503 with Retry-After on both adapters, whatever
 * the rollback after the failure does. On a full disk SQLite rolls the transaction back itself
 * and the driver's ROLLBACK then fails ("no transaction is active"); on PostgreSQL a connection
 * cut mid-transaction fails its ROLLBACK too. Neither may hide the error that says why.
 */
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function open(options: Parameters<typeof createTestApp>[0] = {}): Promise<TestApp> {
  const t = await createTestApp(options);
  cleanups.push(() => t.close());
  return t;
}

async function expectUnavailable(response: Response, what: string): Promise<void> {
  expect(response.status, `${what}: ${await response.clone().text()}`).toBe(503);
  expect(Number(response.headers.get('retry-after')), `${what}: Retry-After`).toBeGreaterThan(0);
  expect(((await response.json()) as { messages: string[] }).messages.join(' ')).toContain('storage is unavailable');
}

describe('issue 40 item B: storage unavailability is 503 with Retry-After', () => {
  it.skipIf(onlyOn('sqlite', 'a full file system under the SQLite data dir'))(
    'issue 40 item B: on a full disk every failed write is 503 with Retry-After, not 500 (SQLite)',
    async (context) => {
      const disk = mountSmallDisk('8m');
      if (typeof disk === 'string') return context.skip();
      cleanups.push(() => disk.remove());
      const t = await open({ dataDir: disk.dir });
      const created = await t.call('POST', '/api/v2/nas', { auth: t.basic, body: { name: 'before', host: 'nas.example', type: 'local' } });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: number };

      disk.fill();
      // Writes of each kind: a create, an update, a delete, each a transaction with its audit event.
      const writes: Array<[string, () => Promise<Response>]> = [
        [
          'create',
          () => t.call('POST', '/api/v2/nas', { auth: t.basic, body: { name: 'during', host: 'nas.example', type: 'local', comment: 'c'.repeat(1000) } }),
        ],
        ['update', () => t.call('PUT', `/api/v2/nas/${id}`, { auth: t.basic, body: { comment: 'u'.repeat(1000) } })],
        ['delete', () => t.call('DELETE', `/api/v2/nas/${id}`, { auth: t.basic })],
      ];
      for (let round = 0; round < 5; round++) {
        for (const [what, write] of writes) await expectUnavailable(await write(), `${what}, round ${round}`);
      }

      disk.free();
      expect((await writes[0]![1]()).status).toBe(201);
    },
  );

  it.skipIf(onlyOn('postgres', 'a PostgreSQL connection terminated mid-transaction'))(
    'issue 40 item B: a write whose connection is terminated mid-transaction is 503 with Retry-After, not 500 (PostgreSQL)',
    async () => {
      const t = await open();
      const created = await t.call('POST', '/api/v2/nas', { auth: t.basic, body: { name: 'locked', host: 'nas.example', type: 'local' } });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: number };

      // The test's own session holds the row, so the service's update waits inside its transaction;
      // that waiting backend (of this test's own database only) is then terminated.
      const holder = new pg.Client({ connectionString: t.databaseUrl });
      await holder.connect();
      cleanups.push(() => holder.end());
      await holder.query('begin');
      await holder.query('select id from nas where id = $1 for update', [id]);
      const update = t.call('PUT', `/api/v2/nas/${id}`, { auth: t.basic, body: { comment: 'while locked' } });
      let waiting: number | undefined;
      while (waiting === undefined) {
        const { rows } = await holder.query<{ pid: number }>(
          `select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and wait_event_type = 'Lock'`,
        );
        waiting = rows[0]?.pid;
        if (waiting === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await holder.query('select pg_terminate_backend($1)', [waiting]);
      await expectUnavailable(await update, 'the update whose connection was terminated');
      await holder.query('rollback');

      // The pool gave the dead connection up: the next write is served.
      expect((await t.call('PUT', `/api/v2/nas/${id}`, { auth: t.basic, body: { comment: 'after' } })).status).toBe(200);
    },
  );
});
