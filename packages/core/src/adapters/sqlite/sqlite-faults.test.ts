import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { holdSqliteWriteLock, requireTools } from '../../testing/index.js';
import { isStorageUnavailable } from '../../errors/storage-unavailable.js';
import type { Storage } from '../../ports/storage.js';
import { openSqliteStorage, type SqliteStorageOptions } from './sqlite-storage.js';
import { databaseFiles } from './sqlite-file-modes.js';
import { checkSqliteFile, DatabaseDamagedError } from './sqlite-integrity.js';

/**
 * Issue 21 (faults), at the SQLite adapter: another process's write lock, the file deleted
 * under the service, a full disk, a damaged page. Real files, a real second process.
 */
const tools = requireTools(['sqlite3'], 'apt-get install -y sqlite3');

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function newDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'dms-faults-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function openStorage(options: SqliteStorageOptions): Promise<Storage> {
  const storage = openSqliteStorage(options);
  cleanups.push(() => storage.close());
  await storage.migrate();
  return storage;
}

const nas = (name: string) => ({ name, host: 'nas.example', type: 'local' as const, comment: null, price: null });

/** The longest the event loop was held up while `run` ran, in ms. */
async function worstLoopDelay<T>(run: () => Promise<T>): Promise<{ result: PromiseSettledResult<T>; worstMs: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const [result] = await Promise.allSettled([run()]);
  histogram.disable();
  return { result: result!, worstMs: histogram.max / 1e6 };
}

/** Resolves when `condition` holds, checking every 20 ms; fails after `withinMs`. */
async function until(condition: () => Promise<boolean> | boolean, withinMs: number): Promise<void> {
  const deadline = performance.now() + withinMs;
  while (!(await condition())) {
    if (performance.now() > deadline) throw new Error(`condition not met within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.skipIf(!tools.ok)('issue 21: SQLite storage faults', () => {
  const sqlite3 = tools.paths['sqlite3']!;

  it('item 21.1: while another process holds the write lock, reads answer at once, a write waits its bound off the loop and fails BUSY, and the storage recovers', async () => {
    const file = join(newDir(), 'dms.sqlite');
    const storage = await openStorage({ file, busyBudgetMs: 1000 });
    const kept = await storage.nas.create(nas('before'));
    const holder = await holdSqliteWriteLock(sqlite3, file);
    cleanups.push(() => holder.release());

    const { result, worstMs } = await worstLoopDelay(async () => {
      const started = performance.now();
      let writeSettled = false;
      const write = storage.nas.create(nas('during')).finally(() => (writeSettled = true));
      write.catch(() => {});
      const readStarted = performance.now();
      expect((await storage.nas.get(kept.id))?.name).toBe('before');
      const readMs = performance.now() - readStarted;
      expect(writeSettled, 'the read answered while the write was still waiting').toBe(false);
      const failure = await write.then(
        () => undefined,
        (error: unknown) => error,
      );
      return { readMs, writeMs: performance.now() - started, failure };
    });
    expect(result.status).toBe('fulfilled');
    const { readMs, writeMs, failure } = (result as PromiseFulfilledResult<{ readMs: number; writeMs: number; failure: unknown }>).value;
    expect(readMs).toBeLessThan(100);
    expect(isStorageUnavailable(failure), `the write ends as storage unavailable (503): ${String(failure)}`).toBe(true);
    expect(writeMs).toBeGreaterThanOrEqual(900);
    expect(writeMs).toBeLessThan(2000);
    expect(worstMs, 'the event loop never waited on the lock').toBeLessThan(100);

    await holder.release();
    expect((await storage.nas.create(nas('after'))).name).toBe('after');
    expect((await storage.nas.list({ limit: 10, offset: 0, sort: [], filters: [] })).items.map((row) => row.name).sort()).toEqual(['after', 'before']);
  });

  it('item 21.1: a write and a transaction that wait for the lock land once it goes, each applied exactly once, with reads answering meanwhile', async () => {
    const file = join(newDir(), 'dms.sqlite');
    const storage = await openStorage({ file, busyBudgetMs: 3000 });
    await storage.settings.set('counter', 0);
    const kept = await storage.nas.create(nas('before'));
    const holder = await holdSqliteWriteLock(sqlite3, file, { releaseAfterMs: 400 });
    cleanups.push(() => holder.release());

    const { result, worstMs } = await worstLoopDelay(async () => {
      const write = storage.nas.create(nas('late'));
      // A read-modify-write transaction: retried whole, it adds one, not two.
      const transaction = storage.settings.update<number>('counter', (current) => ({ value: (current ?? 0) + 1 }));
      const readStarted = performance.now();
      await storage.nas.get(kept.id);
      const readMs = performance.now() - readStarted;
      return { readMs, written: await write, counted: await transaction };
    });
    expect(result.status, String((result as PromiseRejectedResult).reason)).toBe('fulfilled');
    const { readMs, written, counted } = (result as PromiseFulfilledResult<{ readMs: number; written: { name: string }; counted: number }>).value;
    expect(readMs).toBeLessThan(100);
    expect(worstMs).toBeLessThan(100);
    expect(written.name).toBe('late');
    expect(counted).toBe(1);
    expect(await storage.settings.get<number>('counter')).toBe(1);
    expect((await storage.nas.list({ limit: 10, offset: 0, sort: [], filters: [] })).count).toBe(2);
  });

  it('item 21.9: /readyz (ping) fails while another process holds the write lock, at once, and passes again when it goes', async () => {
    const file = join(newDir(), 'dms.sqlite');
    const storage = await openStorage({ file });
    await storage.ping();
    const holder = await holdSqliteWriteLock(sqlite3, file);
    cleanups.push(() => holder.release());
    // The probe shares an answer for a second: wait past the one above.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const started = performance.now();
    await expect(storage.ping()).rejects.toMatchObject({ code: 'unavailable', message: expect.stringContaining('locked by another process') });
    expect(performance.now() - started).toBeLessThan(200);
    await holder.release();
    await until(
      async () =>
        storage.ping().then(
          () => true,
          () => false,
        ),
      3000,
    );
  });
});

describe('issue 21: the database file deleted, a full disk, a damaged file', () => {
  it('item 21.2: a database file deleted under the running storage is noticed: writes and ping answer unavailable, an error says what happened, and a rescued copy holds every acknowledged row', async () => {
    const dir = newDir();
    const file = join(dir, 'dms.sqlite');
    const errors: string[] = [];
    const storage = await openStorage({ file, error: (message) => errors.push(message) });
    for (let i = 0; i < 50; i++) await storage.nas.create(nas(`nas-${i}`));
    for (const path of databaseFiles(file)) rmSync(path, { force: true });

    await until(() => errors.length > 0, 3000);
    expect(errors[0]).toContain(`${file} was deleted`);
    await expect(storage.nas.create(nas('after-delete'))).rejects.toMatchObject({ name: 'DomainError', code: 'unavailable', retryAfter: 30 });
    await expect(storage.ping()).rejects.toMatchObject({ code: 'unavailable', message: expect.stringContaining('was deleted') });
    // Reads still answer from the file the process holds.
    expect((await storage.nas.findByName('nas-49'))?.name).toBe('nas-49');

    await until(() => errors.some((message) => message.startsWith('saved the open database')), 5000);
    const rescued = readdirSync(dir).filter((name) => name.startsWith('dms.sqlite.rescued-') && !name.endsWith('-wal') && !name.endsWith('-shm'));
    expect(rescued).toHaveLength(1);
    const copy = new BetterSqlite3(join(dir, rescued[0]!), { readonly: true });
    try {
      expect((copy.prepare('select count(*) as n from nas').get() as { n: number }).n).toBe(50);
    } finally {
      copy.close();
    }
  });

  it('item 21.2: a database file replaced under the running storage is noticed the same way', async () => {
    const dir = newDir();
    const file = join(dir, 'dms.sqlite');
    const errors: string[] = [];
    const storage = await openStorage({ file, error: (message) => errors.push(message) });
    await storage.nas.create(nas('kept'));
    const other = join(dir, 'other.sqlite');
    new BetterSqlite3(other).close();
    execFileSync('mv', [other, file]);
    await expect(storage.ping()).rejects.toMatchObject({ code: 'unavailable', message: expect.stringContaining('was replaced') });
    await expect(storage.nas.create(nas('after-replace'))).rejects.toMatchObject({ code: 'unavailable' });
    expect(errors[0]).toContain('was replaced');
  });

  const canMount = process.getuid?.() === 0;
  if (!canMount) console.warn('[skip] item 21.9 full disk: mounting a small tmpfs needs root');
  it.skipIf(!canMount)('item 21.9: /readyz (ping) fails on a full file system and passes again once there is room, with no restart', async (context) => {
    const mountPoint = newDir();
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=3m', 'tmpfs', mountPoint]);
    } catch (error) {
      console.warn(`[skip] item 21.9 full disk: cannot mount a tmpfs (${(error as Error).message.split('\n')[0]})`);
      context.skip();
    }
    cleanups.push(() => void execFileSync('umount', ['-l', mountPoint]));
    const file = join(mountPoint, 'dms.sqlite');
    const storage = await openStorage({ file });
    await storage.nas.create(nas('first'));
    await storage.ping();
    const filler = join(mountPoint, 'filler');
    const fd = openSync(filler, 'w');
    try {
      const block = Buffer.alloc(64 * 1024, 1);
      for (;;) writeSync(fd, block);
    } catch (error) {
      expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
    } finally {
      closeSync(fd);
    }
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await expect(storage.ping()).rejects.toMatchObject({ code: 'unavailable', message: expect.stringContaining('is full') });
    rmSync(filler);
    await until(
      async () =>
        storage.ping().then(
          () => true,
          () => false,
        ),
      3000,
    );
    expect((await storage.nas.create(nas('after'))).name).toBe('after');
  });

  it('item 21.11: a database with a damaged table page is refused at open with a message that says how to restore; served only when asked, with a warning; the full check reports it', async () => {
    const dir = newDir();
    const file = join(dir, 'dms.sqlite');
    const storage = openSqliteStorage({ file });
    await storage.migrate();
    for (let i = 0; i < 400; i++) await storage.nas.create({ ...nas(`nas-${i}`), comment: 'x'.repeat(200) });
    await storage.close();
    // Damage a page in the middle of the nas table's b-tree: what a bad sector leaves.
    const raw = new BetterSqlite3(file);
    const pageSize = raw.pragma('page_size', { simple: true }) as number;
    const pages = (raw.prepare("select pageno from dbstat where name = 'nas' and pagetype = 'leaf' order by pageno").all() as Array<{ pageno: number }>).map(
      (row) => row.pageno,
    );
    raw.pragma('wal_checkpoint(TRUNCATE)');
    raw.close();
    expect(pages.length).toBeGreaterThan(3);
    const victim = pages[Math.floor(pages.length / 2)]!;
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(64, 0xff), 0, 64, (victim - 1) * pageSize + 8);
    closeSync(fd);

    let refusal: unknown;
    try {
      openSqliteStorage({ file });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(DatabaseDamagedError);
    expect((refusal as Error).message).toMatch(/is damaged .*restore .*dms\.sqlite from your last backup.*DMS_ALLOW_DAMAGED_DATABASE=1/);

    const warnings: string[] = [];
    const served = openSqliteStorage({ file, integrity: 'warn', warn: (message) => warnings.push(message) });
    cleanups.push(() => served.close());
    expect(warnings.some((message) => message.includes('serving a damaged database'))).toBe(true);
    expect(checkSqliteFile(file).length).toBeGreaterThan(0);
  });

  it('item 21.11: a sound database passes the check', async () => {
    const dir = newDir();
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'dms.sqlite');
    const storage = await openStorage({ file });
    await storage.nas.create(nas('sound'));
    expect(checkSqliteFile(file)).toEqual([]);
    expect(existsSync(file)).toBe(true);
  });
});
