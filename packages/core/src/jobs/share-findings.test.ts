import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Storage, Stores } from '../ports/storage.js';
import type { JobOutcome } from '../ports/job-store.js';
import { openSqliteStorage } from '../adapters/sqlite/sqlite-storage.js';
import { migratedPostgres } from '../testing/migrated-postgres.js';
import { postgresOrSkip } from '../testing/postgres-test-database.js';
import { storeShareFindings, type FinishedShareJob } from './share-findings.js';

const hourMs = 3600_000;
const GiB = 1024 ** 3;
const retry = { firstPauseMs: 1, maxPauseMs: 1, stopping: new AbortController().signal, onError: () => {} };

/** A completed test that read `free` bytes free of 100 GiB, `hours` after the first. */
function testReading(shareId: number, hours: number, free: number): FinishedShareJob {
  const at = new Date(Date.parse('2026-03-01T00:00:00.000Z') + hours * hourMs);
  const outcome: JobOutcome = { status: 'completed', message: null, progress: 3, total: 3, steps: [], result: { capacity_bytes: 100 * GiB, free_bytes: free } };
  return { kind: 'share_test', shareId, outcome, analytics: undefined, at: at.toISOString(), durationMs: 5, now: at };
}

/** `storage` whose own share writes throw: what it stores must go through `transaction`. */
function onlyInTransactions(storage: Storage): Storage {
  const refuse = () => Promise.reject(new Error('written outside the transaction'));
  const shares = new Proxy(storage.shares, {
    get: (target, key) => (key === 'recordTest' || key === 'recordScan' || key === 'saveForecast' ? refuse : Reflect.get(target, key, target)),
  });
  return new Proxy(storage, { get: (target, key) => (key === 'shares' ? shares : Reflect.get(target, key, target)) });
}

/** `storage` whose forecast is refused (a constraint, say), in a transaction or not. */
function forecastRefused(storage: Storage): Storage {
  const refusing = (stores: Stores): Stores => {
    const shares = new Proxy(stores.shares, {
      get: (target, key) => (key === 'saveForecast' ? () => Promise.reject(new Error('forecast refused')) : Reflect.get(target, key, target)),
    });
    return new Proxy(stores, { get: (target, key) => (key === 'shares' ? shares : Reflect.get(target, key, target)) });
  };
  const wrapped = refusing(storage) as Storage;
  return new Proxy(wrapped, {
    get: (target, key) =>
      key === 'transaction'
        ? <T>(work: (stores: Stores) => Promise<T>) => storage.transaction((stores) => work(refusing(stores)))
        : Reflect.get(target, key, target),
  });
}

describe.each(['sqlite', 'postgres'] as const)(
  'a finished job stores its reading and the forecast in one commit (docs/decisions/190-fewer-commits-per-test.md) (%s)',
  (adapter) => {
    let storage: Storage;
    let shareId: number;
    let close: () => Promise<void>;

    beforeEach(async (context) => {
      if (adapter === 'postgres') {
        // No PostgreSQL server here: postgresOrSkip printed why (on CI it throws instead).
        if (await postgresOrSkip('share findings on PostgreSQL')) return context.skip();
        const migrated = await migratedPostgres();
        storage = migrated.storage;
        close = migrated.close;
      } else {
        const dir = mkdtempSync(join(tmpdir(), 'dms-findings-'));
        storage = openSqliteStorage({ file: join(dir, 'dms.sqlite') });
        await storage.migrate();
        close = async () => {
          await storage.close();
          rmSync(dir, { recursive: true, force: true });
        };
      }
      const nas = await storage.nas.create({ name: 'filer', host: 'localhost', type: 'local', comment: null, price: null });
      shareId = (await storage.shares.create({ nas_id: nas.id, name: 'projects', path: '/srv/projects' })).id;
    });
    afterEach(async () => close?.());

    it('writes the health, the reading and the forecast it changes through one transaction', async () => {
      const errors: unknown[] = [];
      const inOne = onlyInTransactions(storage);
      // 1 GiB less free space every 12 hours: three readings make a forecast.
      for (const [i, hours] of [0, 12, 24].entries())
        await storeShareFindings(inOne, testReading(shareId, hours, (50 - i) * GiB), retry, (e) => errors.push(e));
      expect(errors).toEqual([]);
      const share = await storage.shares.get(shareId);
      expect(share).toMatchObject({ health: 'ok', last_test_status: 'completed', capacity_bytes: 100 * GiB, free_bytes: 48 * GiB });
      expect(share?.capacity_forecast).toMatchObject({ samples: 3, growth_bytes_per_day: 2 * GiB });
    });

    it('keeps the reading when the forecast is refused, and tells why', async () => {
      const errors: unknown[] = [];
      const refused = forecastRefused(storage);
      for (const [i, hours] of [0, 12, 24].entries())
        await storeShareFindings(refused, testReading(shareId, hours, (50 - i) * GiB), retry, (e) => errors.push(e));
      const share = await storage.shares.get(shareId);
      expect(share).toMatchObject({ health: 'ok', free_bytes: 48 * GiB, capacity_forecast: null });
      expect(await storage.shares.capacityHistory(shareId, '2026-01-01T00:00:00.000Z', 10)).toHaveLength(3);
      // Each reading: the transaction refused (told through the retry options), then the forecast alone (told here).
      expect(errors.map((e) => (e as Error).message)).toEqual(['forecast refused', 'forecast refused', 'forecast refused']);
    });
  },
);
