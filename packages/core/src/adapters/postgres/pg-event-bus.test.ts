import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeEvent, makeInternalEvent, type DmsEvent, type InternalEvent } from '../../domain/events.js';
import { startTrapDispatcher, type TrapDispatchTarget } from '../../events/trap-dispatcher.js';
import { JobSignals } from '../../jobs/job-signals.js';
import type { TrapSender, TrapTarget } from '../../ports/notifier.js';
import type { Storage } from '../../ports/storage.js';
import { systemPrincipal } from '../../scopes/principal.js';
import { createAesGcmSecretBox } from '../aes-gcm/aes-gcm-secret-box.js';
import { createCore } from '../../services/create-core.js';
import { countingHasher } from '../../testing/counting-hasher.js';
import { createShareDriverRegistry } from '../share-drivers/index.js';
import { openSqliteStorage } from '../sqlite/index.js';
import { listenerApplicationName, PgEventBus, type PgEventBusOptions } from './pg-event-bus.js';
import { createTestDatabase, postgresOrSkip, testServerUrl, type TestDatabase } from '../../testing/postgres-test-database.js';

// Locally a missing server skips with the reason printed; on CI it fails.
const unreachable = await postgresOrSkip();

const at = new Date('2030-01-02T03:04:05.000Z');

/** Resolves once `condition` holds, checked every 10 ms; fails after `ms`. */
async function waitUntil(condition: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The next event on `bus` that `matches`, or a failure after `ms`. */
function nextEvent(bus: PgEventBus, matches: (event: DmsEvent) => boolean, ms: number): Promise<DmsEvent> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no matching event within ${ms} ms`)), ms);
    const stop = bus.subscribe((event) => {
      if (!matches(event)) return;
      clearTimeout(timer);
      stop();
      resolve(event);
    });
  });
}

/** Records sends: above the port, so a fake is fine. */
class RecordingSender implements TrapSender {
  readonly sent: Array<{ target: TrapTarget; event: DmsEvent }> = [];
  async send(target: TrapTarget, event: DmsEvent): Promise<void> {
    this.sent.push({ target, event });
  }
  close(): void {}
}

const everything: TrapDispatchTarget = {
  id: 1,
  version: 'v2c',
  manager: '127.0.0.1:1162',
  community: 'public',
  activation: 1,
  severity_low: 1,
  severity_high: 5,
};

describe.skipIf(unreachable)('PgEventBus: replicas over LISTEN/NOTIFY', () => {
  let database: TestDatabase | undefined;
  const buses: PgEventBus[] = [];
  const errors: unknown[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    await Promise.all(buses.splice(0).map((bus) => bus.close()));
    errors.length = 0;
  });
  afterAll(async () => {
    await database?.drop();
  });

  async function replica(options: Partial<PgEventBusOptions> = {}): Promise<PgEventBus> {
    if (!database) throw new Error('no test database');
    const bus = await PgEventBus.open({ connection: database.url, onError: (error) => errors.push(error), retryMs: 20, ...options });
    buses.push(bus);
    return bus;
  }

  it('delivers a published event locally at once and to the other replica marked remote', async () => {
    const [a, b] = [await replica(), await replica()];
    const onA: DmsEvent[] = [];
    a.subscribe((event) => onA.push(event));
    const arriving = nextEvent(b, (event) => event.message === 'cors rules changed', 2_000);
    a.publish(makeEvent('configuration_changed', 'cors rules changed', at, { type: 'cors_rules' }));
    expect(onA).toHaveLength(1);
    expect(onA[0]?.origin).toBeUndefined();
    const received = await arriving;
    expect(received).toEqual({
      name: 'configuration_changed',
      severity: 1,
      message: 'cors rules changed',
      at,
      resource: { type: 'cors_rules' },
      origin: 'remote',
    });
    // A replica skips its own notification. NOTIFYs arrive in commit order, so once B's later
    // marker reaches A, A's own notification would have come back had it not been skipped.
    const marker = nextEvent(a, (event) => event.message === 'marker', 2_000);
    b.publish(makeEvent('test_trap', 'marker', at));
    await marker;
    expect(onA.map((event) => [event.message, event.origin])).toEqual([
      ['cors rules changed', undefined],
      ['marker', 'remote'],
    ]);
  });

  it('sends a burst of events in a few statements, every one arriving, in order', async () => {
    const [a, b] = [await replica(), await replica()];
    const arrived: string[] = [];
    b.subscribeSignals((event) => arrived.push(event.message));
    // Watches the statements that carry NOTIFYs (the bus's own pg client, unchanged).
    const query = vi.spyOn(pg.Client.prototype, 'query');
    try {
      const sent = Array.from({ length: 300 }, (_, i) => `job ${i} changed`);
      for (const message of sent) a.signal(makeInternalEvent('job_changed', message, at, { type: 'job', id: `job-${message}` }));
      await waitUntil(() => arrived.length === sent.length, 5_000, 'every signal arrives');
      expect(arrived).toEqual(sent);
      expect(errors).toEqual([]);
      const notifying = query.mock.calls.filter(([config]) => JSON.stringify(config).includes('pg_notify'));
      // One statement per event would be 300: the first takes one, the next the rest that waited, 100 at a time.
      expect(notifying.length).toBeGreaterThan(0);
      expect(notifying.length).toBeLessThanOrEqual(5);
    } finally {
      query.mockRestore();
    }
  });

  it('sends a trap once, on the replica where the event happened', async () => {
    const [a, b] = [await replica(), await replica()];
    const [senderA, senderB] = [new RecordingSender(), new RecordingSender()];
    const stopA = startTrapDispatcher({ bus: a, listTargets: async () => [everything], sender: senderA, onError: (error) => errors.push(error) });
    const stopB = startTrapDispatcher({ bus: b, listTargets: async () => [everything], sender: senderB, onError: (error) => errors.push(error) });
    const arrived = nextEvent(b, (event) => event.name === 'share_test_failed', 2_000);
    a.publish(makeEvent('share_test_failed', 'share test of x failed', at));
    await arrived;
    await Promise.all([stopA(), stopB()]);
    expect(senderA.sent.map(({ event }) => event.message)).toEqual(['share test of x failed']);
    expect(senderB.sent).toEqual([]);
  });

  it('wakes a job long-poll on the other replica within 100 ms', async () => {
    const [a, b] = [await replica(), await replica()];
    const [signalsA, signalsB] = [new JobSignals(a), new JobSignals(b)];
    const started = performance.now();
    const woke = signalsB.next('changed:job-1', 5_000).then(() => performance.now() - started);
    signalsA.changed('job-1');
    expect(await woke).toBeLessThan(100);
  });

  it('skips a notification it does not understand (another version, a stray NOTIFY)', async () => {
    const b = await replica();
    const seen: Array<DmsEvent | InternalEvent> = [];
    b.subscribe((event) => seen.push(event));
    b.subscribeSignals((event) => seen.push(event));
    const client = new pg.Client({ connectionString: database!.url });
    await client.connect();
    try {
      for (const payload of ['not json', '{"from":"x","kind":"event","event":{"name":"unknown_event","message":"m","at":"2030-01-02T03:04:05.000Z"}}']) {
        await client.query('select pg_notify($1, $2)', ['dms_events', payload]);
      }
    } finally {
      await client.end();
    }
    const a = await replica();
    const marker = nextEvent(b, (event) => event.message === 'marker', 2_000);
    a.publish(makeEvent('test_trap', 'marker', at));
    await marker;
    expect(seen.map((event) => event.message)).toEqual(['marker']);
  });

  it('reconnects after its listening connection is terminated, and forgets credentials meanwhile', async () => {
    let listening = 0;
    const [a, b] = [await replica(), await replica({ onListening: () => (listening += 1) })];
    const signals: InternalEvent[] = [];
    b.subscribeSignals((event) => signals.push(event));
    expect(listening).toBe(1);
    const admin = new pg.Client({ connectionString: testServerUrl });
    await admin.connect();
    try {
      const { rowCount } = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [
        listenerApplicationName(b.replicaId),
      ]);
      expect(rowCount).toBe(1);
    } finally {
      await admin.end();
    }
    await waitUntil(() => listening === 2, 5_000, 'the bus listens again');
    expect(errors.length).toBeGreaterThan(0);
    expect(signals.map((event) => [event.name, event.origin])).toEqual([['credentials_changed', 'remote']]);
    const arriving = nextEvent(b, (event) => event.message === 'after the drop', 2_000);
    a.publish(makeEvent('configuration_changed', 'after the drop', at, { type: 'settings' }));
    expect((await arriving).origin).toBe('remote');
  });

  it('makes another replica refuse a revoked API key within 2 s', async () => {
    // Two cores over one SQLite file stand in for two replicas over shared storage; the clock
    // stands still, so the key cache never expires by itself: only the signal can clear it.
    const dir = mkdtempSync(join(tmpdir(), 'dms-pg-bus-'));
    const storages: Storage[] = [];
    try {
      const secrets = createAesGcmSecretBox(randomBytes(32));
      const cores = [];
      for (const bus of [await replica(), await replica()]) {
        const storage = openSqliteStorage({ file: join(dir, 'dms.db'), secrets, warn: () => {} });
        await storage.migrate();
        storages.push(storage);
        cores.push(
          createCore({ storage, secrets, events: bus, drivers: createShareDriverRegistry({ localRoots: [] }), hasher: countingHasher(), clock: () => at }),
        );
      }
      const [a, b] = cores as [ReturnType<typeof createCore>, ReturnType<typeof createCore>];
      const { key, id } = await a.apiKeys.create(systemPrincipal, { name: 'ci', api_key_scopes: [{ controller: 'nas', action: 'index' }] });
      const bearer = { kind: 'bearer', token: key } as const;
      await expect((async () => b.auth.authenticate(bearer))()).resolves.toMatchObject({ kind: 'api_key' });
      await a.apiKeys.destroy(systemPrincipal, String(id));
      await waitUntil(
        () =>
          Promise.resolve()
            .then(() => b.auth.authenticate(bearer))
            .then(
              () => false,
              () => true,
            ),
        2_000,
        'the other replica refuses the revoked key',
      );
    } finally {
      for (const storage of storages) await storage.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
