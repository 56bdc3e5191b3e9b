import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStorage } from '../adapters/sqlite/sqlite-storage.js';
import { openPostgresStorage } from '../adapters/postgres/postgres-storage.js';
import { createAesGcmSecretBox } from '../adapters/aes-gcm/aes-gcm-secret-box.js';
import { MemoryEventBus } from '../adapters/memory/memory-event-bus.js';
import type { ShareDriver } from '../ports/share-driver.js';
import type { Storage } from '../ports/storage.js';
import type { ActiveJobStatus } from '../domain/job.js';
import { systemPrincipal } from '../scopes/principal.js';
import { countingHasher } from '../testing/counting-hasher.js';
import { createTestDatabase, postgresOrSkip } from '../testing/postgres-test-database.js';
import { wireCore } from './create-core.js';

// Locally a missing server skips its half with the reason printed; on CI it fails (see require-tool.ts).
// Locally a missing server skips with the reason printed; on CI it fails.
const unreachable = await postgresOrSkip('the PostgreSQL half of the share long-poll test');

/** A promise and the function that settles it: a step of the test's own scan driver. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe.each(['sqlite', 'postgres'] as const)('share-scoped long-polls (%s)', (adapter) => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function openStorage(): Promise<Storage> {
    if (adapter === 'sqlite') {
      const dir = mkdtempSync(join(tmpdir(), 'dms-long-poll-'));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      return openSqliteStorage({ file: join(dir, 'dms.sqlite'), warn: () => {} });
    }
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    return openPostgresStorage({ url: database.url });
  }

  it.skipIf(adapter === 'postgres' && unreachable !== undefined)(
    'issue 40 item 14: GET /nas_shares/{id}/scan?job_id=&wait= answers at a progress change (working, with the counts so far) before completed, as /jobs/{id}?wait= does',
    async () => {
      const storage = await openStorage();
      cleanups.push(() => storage.close());
      await storage.migrate();
      // The clock moves only when the test moves it: the progress saver's interval passes when the
      // test says so, and a long-poll's 30 s never end by themselves.
      let now = Date.now();
      const clock = () => new Date(now);
      // The scan driver is above the port here: it reports what the test lets it, when it lets it.
      const report = gate();
      const finish = gate();
      const started = gate();
      const driver: ShareDriver = {
        testSteps: () => [],
        test: async () => ({ ok: true, message: 'reached' }),
        scan: async (_location, run) => {
          started.open();
          await report.opened;
          run.onProgress({ file_count: 5, file_size_sum: 50, directories: 1 });
          await finish.opened;
          return { file_count: 9, file_size_sum: 90 };
        },
      };
      // Reads of the job counted (the store otherwise as it is): the test knows when a long-poll
      // has read its first view.
      let reads = 0;
      const jobs = new Proxy(storage.jobs, {
        get(target, key) {
          if (key === 'get') return (id: string) => (reads++, target.get(id));
          const value: unknown = Reflect.get(target, key, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      const counted: Storage = { ...storage, jobs };
      const { core, engine } = wireCore({
        storage: counted,
        secrets: createAesGcmSecretBox(randomBytes(32)),
        events: new MemoryEventBus(),
        drivers: { forType: () => driver },
        hasher: countingHasher(),
        clock,
        engine: { pollMs: 20 },
      });
      await engine.start({ recoverEveryWorking: adapter === 'sqlite' });
      cleanups.push(() => engine.stop({ graceMs: 0 }));

      const nas = await core.nas.create(systemPrincipal, { name: 'filer', type: 'smb_v3', host: '192.0.2.10' });
      const share = await core.shares.create(systemPrincipal, String(nas.id), { name: 'data', path: 'data' });
      const queued = await core.jobs.scan(systemPrincipal, { kind: 'all' }, String(share.id));
      const follow = (wait = '30') =>
        core.jobs.status(systemPrincipal, { jobId: queued.job_id, kind: 'share_scan', scope: { kind: 'all' }, shareRef: String(share.id) }, wait);
      const shown = (status: ActiveJobStatus) => [status.status, status.file_count ?? null];

      await started.opened;
      const working = await follow('0');
      expect(shown(working)).toEqual(['working', null]);

      // Asked from the view "working, nothing counted yet": the next answer is the progress.
      const readsBefore = reads;
      const answer = follow();
      while (reads === readsBefore) await new Promise((resolve) => setImmediate(resolve));
      report.open();
      await new Promise((resolve) => setImmediate(resolve));
      now += 1_000;
      const progressed = await answer;
      expect(shown(progressed)).toEqual(['working', 5]);

      finish.open();
      expect(shown(await follow())).toEqual(['completed', 9]);
    },
  );
});
