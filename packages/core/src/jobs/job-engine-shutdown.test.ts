import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStorage } from '../adapters/sqlite/sqlite-storage.js';
import { createAesGcmSecretBox } from '../adapters/aes-gcm/aes-gcm-secret-box.js';
import { MemoryEventBus } from '../adapters/memory/memory-event-bus.js';
import { createHostPolicy } from '../security/host-policy.js';
import type { ShareDriver } from '../ports/share-driver.js';
import type { Storage } from '../ports/storage.js';
import type { JobRecord } from '../ports/job-store.js';
import { JobEngine } from './job-engine.js';

/**
 * The share driver is above the port here: a test that ends when the test says so, or when
 * its run is aborted (as the real drivers do, with a failed outcome).
 */
function gatedDriver() {
  const gates = new Map<string, () => void>();
  const driver: ShareDriver = {
    testSteps: () => ['connect'],
    test: (location, run) =>
      new Promise((resolve) => {
        const end = (ok: boolean, message: string) => {
          run.onStep({ step: 'connect', outcome: ok ? 'ok' : 'failed', duration_ms: 1 } as never);
          resolve({ ok, message });
        };
        gates.set(location.path, () => end(true, 'reached'));
        run.signal.addEventListener('abort', () => end(false, 'aborted'), { once: true });
      }),
    scan: async () => ({ file_count: 0, file_size_sum: 0 }),
  };
  return { driver, gates };
}

async function until(condition: () => Promise<boolean> | boolean, withinMs = 5_000): Promise<void> {
  const deadline = performance.now() + withinMs;
  while (!(await condition())) {
    if (performance.now() > deadline) throw new Error(`condition not met within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('job engine shutdown (issue 21 item 4)', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function setup() {
    const dir = mkdtempSync(join(tmpdir(), 'dms-engine-stop-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const storage: Storage = openSqliteStorage({ file: join(dir, 'dms.sqlite') });
    cleanups.push(() => storage.close());
    await storage.migrate();
    const secrets = createAesGcmSecretBox(randomBytes(32));
    const { driver, gates } = gatedDriver();
    const engine = () => {
      const created = new JobEngine({
        storage,
        secrets,
        drivers: { forType: () => driver },
        hostPolicy: async () => createHostPolicy([]),
        events: new MemoryEventBus(),
        clock: () => new Date(),
        newId: () => `id-${Math.random().toString(36).slice(2)}`,
        concurrency: 1,
        pollMs: 20,
      });
      cleanups.push(() => created.stop());
      return created;
    };
    const enqueue = (into: JobEngine, path: string) =>
      into.enqueue(
        'share_test',
        { label: path, location: { type: 'local', host: 'localhost', path, options: null, username: null, password: null } },
        { nasId: null, shareId: null, total: 1 },
      );
    const job = async (id: string) => (await storage.jobs.get(id)) as JobRecord;
    return { storage, gates, engine, enqueue, job };
  }

  it('item 21.4: after drain no job is claimed; a job still running when the grace ends is aborted and put back in the queue, and the next engine runs it', async () => {
    const { gates, engine, enqueue, job } = await setup();
    const first = engine();
    await first.start({ recoverEveryWorking: true });
    const running = await enqueue(first, 'running');
    await until(() => gates.has('running'));
    const queued = await enqueue(first, 'queued');

    first.drain();
    expect(first.draining.aborted).toBe(true);
    const graceMs = 150;
    const started = performance.now();
    await first.stop({ graceMs });
    expect(performance.now() - started).toBeGreaterThanOrEqual(graceMs - 5);
    expect(first.requeued).toEqual([running.id]);
    expect(await job(running.id)).toMatchObject({ status: 'queued', worker_id: null, started_at: null, progress: 0, steps: [], message: null });
    expect((await job(running.id)).payload_enc).not.toBeNull();
    expect(await job(queued.id)).toMatchObject({ status: 'queued', started_at: null });
    expect(gates.has('queued')).toBe(false);

    // The next start (or another replica) runs both, the requeued one first (its place kept).
    gates.clear();
    const next = engine();
    await next.start({ recoverEveryWorking: true });
    await until(() => gates.has('running'));
    expect(gates.has('queued')).toBe(false);
    gates.get('running')!();
    await until(() => gates.has('queued'));
    gates.get('queued')!();
    await until(async () => (await job(queued.id)).status === 'completed');
    expect(await job(running.id)).toMatchObject({ status: 'completed', message: 'reached' });
  });

  it('item 21.4: a job that ends within the grace keeps its outcome, and its worker takes no queued job after it', async () => {
    const { gates, engine, enqueue, job } = await setup();
    const first = engine();
    await first.start({ recoverEveryWorking: true });
    const ending = await enqueue(first, 'ending');
    await until(() => gates.has('ending'));
    const queued = await enqueue(first, 'queued');

    const stopped = first.stop({ graceMs: 10_000 });
    gates.get('ending')!();
    await stopped;
    expect(await job(ending.id)).toMatchObject({ status: 'completed', message: 'reached', payload_enc: null });
    expect(first.requeued).toEqual([]);
    expect(await job(queued.id)).toMatchObject({ status: 'queued', worker_id: null, started_at: null });
    expect(gates.has('queued')).toBe(false);
  });
});
