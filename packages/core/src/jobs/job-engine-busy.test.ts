import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStorage } from '../adapters/sqlite/sqlite-storage.js';
import { createAesGcmSecretBox } from '../adapters/aes-gcm/aes-gcm-secret-box.js';
import { MemoryEventBus } from '../adapters/memory/memory-event-bus.js';
import { createHostPolicy } from '../security/host-policy.js';
import { gatedShareDriver } from '../testing/gated-share-driver.js';
import { holdSqliteWriteLock, requireTools } from '../testing/index.js';
import { JobEngine } from './job-engine.js';

const tools = requireTools(['sqlite3'], 'apt-get install -y sqlite3');

describe.skipIf(!tools.ok)('job engine while another process holds the SQLite write lock', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('item 21.1: a job that completes while the lock is held longer than a write waits ends completed once the lock goes, not failed "interrupted"; the process goes on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dms-engine-busy-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'dms.sqlite');
    // Writes give up after 200 ms; heartbeats every 100 ms make a job "stale" after 300 ms.
    const storage = openSqliteStorage({ file, busyBudgetMs: 200 });
    cleanups.push(() => storage.close());
    await storage.migrate();

    const { driver, running, finishTest } = gatedShareDriver();
    const errors: unknown[] = [];
    const engine = new JobEngine({
      storage,
      secrets: createAesGcmSecretBox(randomBytes(32)),
      drivers: { forType: () => driver },
      hostPolicy: async () => createHostPolicy([]),
      events: new MemoryEventBus(),
      clock: () => new Date(),
      newId: () => `id-${Math.random().toString(36).slice(2)}`,
      pollMs: 50,
      heartbeatMs: 100,
      onError: (error) => errors.push(error),
    });
    await engine.start({ recoverEveryWorking: true });
    cleanups.push(() => engine.stop());
    const job = await engine.enqueue(
      'share_test',
      { label: 'probe', location: { type: 'local', host: 'localhost', path: '/x', options: null, username: null, password: null } },
      { nasId: null, shareId: null, total: 1 },
    );
    await running;

    const holder = await holdSqliteWriteLock(tools.paths['sqlite3']!, file, { releaseAfterMs: 1200 });
    cleanups.push(() => holder.release());
    finishTest();
    await holder.release();

    let stored = await storage.jobs.get(job.id);
    for (let i = 0; i < 100 && stored?.status === 'working'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      stored = await storage.jobs.get(job.id);
    }
    // Housekeeping had its chances too: several heartbeats' time after the lock went.
    await new Promise((resolve) => setTimeout(resolve, 500));
    stored = await storage.jobs.get(job.id);
    expect(stored).toMatchObject({ status: 'completed', message: 'reached' });
    expect(errors.length, 'the waits were told to onError').toBeGreaterThan(0);
  });
});
