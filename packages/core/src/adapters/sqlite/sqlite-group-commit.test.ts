import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { isStorageUnavailable } from '../../errors/storage-unavailable.js';
import type { Storage } from '../../ports/storage.js';
import { mountSmallDisk, type SmallDisk } from '../../testing/small-disk.js';
import { holdSqliteWriteLock, requireTools } from '../../testing/index.js';
import { maxGroupMembers } from '../kysely/kysely-transaction-group.js';
import { openSqliteStorage } from './sqlite-storage.js';

/**
 * Group commit on SQLite (decision 191), on real files: the transactions ready in one turn share
 * one COMMIT, each in a savepoint of its own. Commits are counted where they are made durable:
 * the commit frames of the -wal (a frame whose header carries the database's size after it).
 */
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function newDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'dms-group-commit-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function openStorage(file: string, busyBudgetMs?: number): Promise<Storage> {
  const storage = openSqliteStorage({ file, warn: () => {}, ...(busyBudgetMs === undefined ? {} : { busyBudgetMs }) });
  cleanups.push(() => storage.close());
  await storage.migrate();
  // An empty -wal from here on (a second connection checkpoints it), so its commit frames are this test's commits.
  const other = new BetterSqlite3(file);
  try {
    other.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    other.close();
  }
  expect(commitFrames(file)).toBe(0);
  return storage;
}

/** Commit frames in the -wal: frames of the current generation (the header's salts) whose header names the database's size. */
function commitFrames(file: string): number {
  let wal: Buffer;
  try {
    wal = readFileSync(`${file}-wal`);
  } catch {
    return 0;
  }
  if (wal.length < 32) return 0;
  const pageSize = wal.readUInt32BE(8);
  const [salt1, salt2] = [wal.readUInt32BE(16), wal.readUInt32BE(20)];
  let commits = 0;
  for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) {
    if (wal.readUInt32BE(at + 8) !== salt1 || wal.readUInt32BE(at + 12) !== salt2) break;
    if (wal.readUInt32BE(at + 4) !== 0) commits += 1;
  }
  return commits;
}

/** A storage.transaction that writes `value` under `key` and answers `answer`. */
function writeSetting<T>(storage: Storage, key: string, value: number, answer: T): Promise<T> {
  return storage.transaction(async (stores) => {
    await stores.settings.set(key, value);
    return answer;
  });
}

describe('SQLite group commit (decision 191)', () => {
  it('transactions started in one turn commit with one COMMIT, each caller answered with its own result; awaited one after another, one COMMIT each', async () => {
    const file = join(newDir(), 'dms.sqlite');
    const storage = await openStorage(file);

    const answers = await Promise.all([1, 2, 3, 4, 5].map((n) => writeSetting(storage, `together.${n}`, n, `answer ${n}`)));
    expect(answers).toEqual(['answer 1', 'answer 2', 'answer 3', 'answer 4', 'answer 5']);
    expect(commitFrames(file)).toBe(1);

    for (const n of [1, 2, 3]) expect(await writeSetting(storage, `alone.${n}`, n, n)).toBe(n);
    expect(commitFrames(file)).toBe(4);

    // Every write is there, as another connection reads the file.
    const reader = new BetterSqlite3(file, { readonly: true });
    cleanups.push(() => void reader.close());
    const keys = reader.prepare("select key from settings where key like 'together.%' or key like 'alone.%' order by key").pluck().all();
    expect(keys).toEqual(['alone.1', 'alone.2', 'alone.3', 'together.1', 'together.2', 'together.3', 'together.4', 'together.5']);
  });

  it(`a group takes at most ${maxGroupMembers} transactions; the rest commit in the next`, async () => {
    const file = join(newDir(), 'dms.sqlite');
    const storage = await openStorage(file);
    const count = maxGroupMembers + 6;
    const answers = await Promise.all(Array.from({ length: count }, (_, n) => writeSetting(storage, `many.${n}`, n, n)));
    expect(answers).toEqual(Array.from({ length: count }, (_, n) => n));
    expect(commitFrames(file)).toBe(2);
  });

  it('a member whose work throws is rolled back to its savepoint and told its own error; the others commit', async () => {
    const file = join(newDir(), 'dms.sqlite');
    const storage = await openStorage(file);
    const refusal = new Error('refused by its own rule');

    const [first, failing, last] = await Promise.allSettled([
      writeSetting(storage, 'first', 1, 'first done'),
      storage.transaction(async (stores) => {
        await stores.settings.set('failing', 2);
        await stores.nas.create({ name: 'never', host: 'nas.example', type: 'local', comment: null, price: null });
        throw refusal;
      }),
      writeSetting(storage, 'last', 3, 'last done'),
    ]);
    expect(first).toEqual({ status: 'fulfilled', value: 'first done' });
    expect(failing).toEqual({ status: 'rejected', reason: refusal });
    expect(last).toEqual({ status: 'fulfilled', value: 'last done' });
    expect(commitFrames(file)).toBe(1);
    expect(await storage.settings.get('first')).toBe(1);
    expect(await storage.settings.get('failing')).toBeUndefined();
    expect((await storage.nas.list({ limit: 10, offset: 0, sort: [], filters: [] })).count).toBe(0);
    expect(await storage.settings.get('last')).toBe(3);
  });

  it('a store call that needs a transaction joins the member it runs in: kept with it, rolled back with it', async () => {
    const file = join(newDir(), 'dms.sqlite');
    const storage = await openStorage(file);
    await storage.settings.set('kept', 0);
    await storage.settings.set('undone', 0);
    const before = commitFrames(file);
    const increment = (current: number | undefined) => ({ value: (current ?? 0) + 1 });

    const [kept, undone] = await Promise.allSettled([
      // settings.update runs in a transaction of its own outside one (inTransaction): here it
      // must join the member, or it would wait for a group behind this one and never answer.
      storage.transaction(async (stores) => [await stores.settings.update('kept', increment), await stores.settings.update('kept', increment)]),
      storage.transaction(async (stores) => {
        await stores.settings.update('undone', increment);
        throw new Error('undo it');
      }),
    ]);
    expect(kept).toEqual({ status: 'fulfilled', value: [1, 2] });
    expect(undone).toMatchObject({ status: 'rejected', reason: { message: 'undo it' } });
    expect(commitFrames(file) - before).toBe(1);
    expect(await storage.settings.get('kept')).toBe(2);
    expect(await storage.settings.get('undone')).toBe(0);
  });

  it('close() lets the transactions already queued commit before the connection goes', async () => {
    const file = join(newDir(), 'dms.sqlite');
    const storage = openSqliteStorage({ file, warn: () => {} });
    await storage.migrate();
    const queued = [1, 2, 3].map((n) => writeSetting(storage, `queued.${n}`, n, n));
    await storage.close();
    expect(await Promise.all(queued)).toEqual([1, 2, 3]);
    // After close a transaction fails as it did before groups: the storage is closed.
    await expect(writeSetting(storage, 'late', 4, 4)).rejects.toThrow();

    const reopened = await openStorage(file);
    expect(await reopened.settings.get('queued.1')).toBe(1);
    expect(await reopened.settings.get('queued.3')).toBe(3);
    expect(await reopened.settings.get('late')).toBeUndefined();
  });

  const tools = requireTools(['sqlite3'], 'apt-get install -y sqlite3');
  // Without the sqlite3 shell no other process can hold the lock: requireTools printed why (CI fails).
  it.skipIf(!tools.ok)(
    'a BEGIN refused by a lock held elsewhere rejects the members waiting for it with SQLITE_BUSY, none applied; the next group commits once the lock goes',
    async () => {
      const file = join(newDir(), 'dms.sqlite');
      const storage = await openStorage(file, 300);
      const holder = await holdSqliteWriteLock(tools.paths['sqlite3']!, file);
      cleanups.push(() => holder.release());

      const outcomes = await Promise.allSettled([1, 2, 3].map((n) => writeSetting(storage, `locked.${n}`, n, n)));
      for (const outcome of outcomes) {
        expect(outcome.status).toBe('rejected');
        const reason = (outcome as PromiseRejectedResult).reason as { code?: string };
        expect(reason.code, String(reason)).toMatch(/^SQLITE_BUSY/);
        expect(isStorageUnavailable(reason)).toBe(true);
      }

      await holder.release();
      expect(await Promise.all([1, 2].map((n) => writeSetting(storage, `after.${n}`, n, n)))).toEqual([1, 2]);
      expect(commitFrames(file)).toBe(1);
      for (const n of [1, 2, 3]) expect(await storage.settings.get(`locked.${n}`)).toBeUndefined();
    },
  );

  describe('on a full disk', () => {
    function smallDisk(): SmallDisk | undefined {
      const disk = mountSmallDisk('8m');
      if (typeof disk === 'string') return undefined;
      cleanups.push(() => disk.remove());
      return disk;
    }

    it('a COMMIT that fails rejects every member with the storage error, and none of their writes is kept', async (context) => {
      const disk = smallDisk();
      // No tmpfs to fill without root: mountSmallDisk printed why (on CI it throws instead).
      if (!disk) return context.skip();
      const file = join(disk.dir, 'dms.sqlite');
      const storage = await openStorage(file);
      await storage.settings.set('before', 0);

      disk.fill();
      const outcomes = await Promise.allSettled([1, 2, 3].map((n) => writeSetting(storage, `full.${n}`, n, n)));
      for (const outcome of outcomes) {
        expect(outcome.status).toBe('rejected');
        const reason = (outcome as PromiseRejectedResult).reason as { code?: string };
        expect(reason.code, String(reason)).toBe('SQLITE_FULL');
        expect(isStorageUnavailable(reason)).toBe(true);
      }

      disk.free();
      for (const n of [1, 2, 3]) expect(await storage.settings.get(`full.${n}`)).toBeUndefined();
      // The storage goes on: the next group commits.
      expect(await Promise.all([writeSetting(storage, 'after.1', 1, 'a'), writeSetting(storage, 'after.2', 2, 'b')])).toEqual(['a', 'b']);
      expect(await storage.settings.get('after.2')).toBe(2);
      expect(await storage.settings.get('before')).toBe(0);
    });

    it('a member whose write fails on the full disk mid-transaction takes the group down with it: nobody is told done, nothing is kept', async (context) => {
      const disk = smallDisk();
      // No tmpfs to fill without root: mountSmallDisk printed why (on CI it throws instead).
      if (!disk) return context.skip();
      const file = join(disk.dir, 'dms.sqlite');
      const storage = await openStorage(file);

      disk.fill();
      // More than SQLite's page cache (2 MB): the pages spill to the -wal before the COMMIT, into the full disk.
      const large = 'x'.repeat(4 * 1024 * 1024);
      const outcomes = await Promise.allSettled([
        writeSetting(storage, 'small.before', 1, 1),
        storage.transaction(async (stores) => {
          await stores.settings.set('large', large);
          return 'large';
        }),
        writeSetting(storage, 'small.after', 3, 3),
      ]);
      for (const outcome of outcomes) {
        expect(outcome.status).toBe('rejected');
        expect(isStorageUnavailable((outcome as PromiseRejectedResult).reason), String((outcome as PromiseRejectedResult).reason)).toBe(true);
      }

      disk.free();
      expect(await storage.settings.get('small.before')).toBeUndefined();
      expect(await storage.settings.get('large')).toBeUndefined();
      expect(await storage.settings.get('small.after')).toBeUndefined();
      expect(await writeSetting(storage, 'after', 1, 'after')).toBe('after');
    });
  });
});
