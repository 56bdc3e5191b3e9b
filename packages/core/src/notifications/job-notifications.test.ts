import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStorage } from '../adapters/sqlite/sqlite-storage.js';
import { MemoryEventBus } from '../adapters/memory/memory-event-bus.js';
import { makeEvent, type DmsEvent } from '../domain/events.js';
import type { Storage } from '../ports/storage.js';
import { pollUntil } from '../testing/poll-until.js';
import { postgresOrSkip } from '../testing/postgres-test-database.js';
import { migratedPostgres } from '../testing/migrated-postgres.js';
import { startJobNotifications } from './job-notifications.js';

// Locally a missing server skips with the reason printed; on CI it fails.
const unreachable = await postgresOrSkip('the PostgreSQL half of the job notification suite');

/**
 * Job outcomes (the events traps carry) are queued for the channels whose level and sources take
 * them, as the job engine announces them on this replica; another replica's are queued there. A
 * scheduled run's outcome goes only to a channel naming its source (docs/decisions/172-alert-damping.md).
 */
for (const adapter of ['sqlite', 'postgres'] as const) {
  describe.skipIf(adapter === 'postgres' && unreachable !== undefined)(`job outcome notifications (${adapter})`, () => {
    let storage: Storage;
    let close: () => Promise<void>;
    const bus = new MemoryEventBus();
    let stop: () => void;
    let ids = 0;
    beforeAll(async () => {
      if (adapter === 'sqlite') {
        storage = openSqliteStorage({ file: ':memory:' });
        await storage.migrate();
        close = () => storage.close();
      } else {
        const database = await migratedPostgres();
        storage = database.storage;
        close = () => database.close();
      }
      stop = startJobNotifications({ bus, storage, clock: () => new Date(), newId: () => `job-${(ids += 1)}`, queued: () => {}, onError: () => {} });
    });
    afterAll(async () => {
      stop();
      await close();
    });

    const channel = (name: string, min_level: number, sources: string[] | null) =>
      storage.notificationChannels.create({
        name,
        type: 'slack',
        enabled: true,
        min_level,
        sources,
        digest: 'immediately',
        settings: { url: 'http://127.0.0.1:4/' },
        secrets: {},
      });
    const listed = async (id: number) =>
      (await storage.notificationDeliveries.list(id, { filters: [], sort: [], limit: 20, offset: 0 })).items.map((delivery) => [
        delivery.event_type,
        delivery.message.source,
      ]);
    const share = { type: 'nas_share', id: 5, name: 'media' };

    it('a failed test reaches a level-3 channel, a routine success only the channel that asks for it', async () => {
      const errors = await channel('errors', 3, null);
      const everything = await channel('everything', 1, null);
      const scansOnly = await channel('scans', 1, ['share_scan_failed']);
      bus.publish(makeEvent('share_test_failed', "test of 'media' failed: refused", new Date(), share));
      bus.publish(makeEvent('share_test_completed', "test of 'media' completed", new Date(), share));
      // Announced by another replica: queued there, not here.
      bus.publish({ ...makeEvent('share_scan_failed', 'elsewhere', new Date(), share), origin: 'remote' });
      // Not a job outcome: never a notification.
      bus.publish(makeEvent('configuration_changed', 'settings changed', new Date()));
      await pollUntil(
        () => listed(everything.id),
        (rows) => rows.length === 2,
        'both outcomes queued',
      );
      expect((await listed(everything.id)).sort()).toEqual([
        ['job.completed', 'share_test_completed'],
        ['job.failed', 'share_test_failed'],
      ]);
      expect(await listed(errors.id)).toEqual([['job.failed', 'share_test_failed']]);
      expect(await listed(scansOnly.id)).toEqual([]);
      const [failed] = (await storage.notificationDeliveries.list(errors.id, { filters: [], sort: [], limit: 1, offset: 0 })).items;
      expect(failed!.message).toMatchObject({
        level: 4,
        data: { job: { kind: 'share_test', status: 'failed', schedule_id: null }, resource: { type: 'nas_share', id: '5', name: 'media' } },
      });
    });

    it('a scheduled test’s outcome reaches no channel with sources null, but one naming it (share_test_completed)', async () => {
      const all = await channel('all, scheduled', 1, null);
      const named = await channel('named', 1, ['share_test_completed', 'share_test_failed']);
      const scheduled = (event: DmsEvent): DmsEvent => ({ ...event, job: { id: 'job-s', schedule_id: 3 } });
      bus.publish(scheduled(makeEvent('share_test_completed', "test of 'media' completed", new Date(), share)));
      bus.publish(scheduled(makeEvent('share_test_failed', "test of 'media' failed", new Date(), share)));
      // Someone's scan: it reaches the channel without sources.
      bus.publish(makeEvent('share_scan_completed', "scan of 'media' completed", new Date(), share));
      // Both scheduled outcomes were queued for the channel naming them: each was looked at for every channel.
      await pollUntil(
        async () => [await listed(named.id), await listed(all.id)],
        ([mine, theirs]) => mine!.length === 2 && theirs!.length === 1,
        'the outcomes queued',
      );
      expect(await listed(all.id)).toEqual([['job.completed', 'share_scan_completed']]);
      expect((await listed(named.id)).sort()).toEqual([
        ['job.completed', 'share_test_completed'],
        ['job.failed', 'share_test_failed'],
      ]);
      const rows = (await storage.notificationDeliveries.list(named.id, { filters: [], sort: [], limit: 2, offset: 0 })).items;
      expect(rows.map((row) => row.message.data)).toEqual([
        expect.objectContaining({ job: expect.objectContaining({ schedule_id: 3 }) }),
        expect.objectContaining({ job: expect.objectContaining({ schedule_id: 3 }) }),
      ]);
    });
  });
}
