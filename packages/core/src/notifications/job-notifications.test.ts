import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStorage } from '../adapters/sqlite/sqlite-storage.js';
import { MemoryEventBus } from '../adapters/memory/memory-event-bus.js';
import { makeEvent } from '../domain/events.js';
import type { Storage } from '../ports/storage.js';
import { pollUntil } from '../testing/poll-until.js';
import { startJobNotifications } from './job-notifications.js';

/**
 * Job outcomes (the events traps carry) are queued for the channels whose level and sources take
 * them, as the job engine announces them on this replica; another replica's are queued there.
 */
let storage: Storage;
const bus = new MemoryEventBus();
let stop: () => void;
let ids = 0;
beforeAll(async () => {
  storage = openSqliteStorage({ file: ':memory:' });
  await storage.migrate();
  stop = startJobNotifications({ bus, storage, clock: () => new Date(), newId: () => `job-${(ids += 1)}`, queued: () => {}, onError: () => {} });
});
afterAll(async () => {
  stop();
  await storage.close();
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

describe('job outcome notifications', () => {
  it('a failed test reaches a level-3 channel, a routine success only the channel that asks for it', async () => {
    const errors = await channel('errors', 3, null);
    const everything = await channel('everything', 1, null);
    const scansOnly = await channel('scans', 1, ['share_scan_failed']);
    const share = { type: 'nas_share', id: 5, name: 'media' };
    bus.publish(makeEvent('share_test_failed', "test of 'media' failed: refused", new Date(), share));
    bus.publish(makeEvent('share_test_completed', "test of 'media' completed", new Date(), share));
    // Announced by another replica: queued there, not here.
    bus.publish({ ...makeEvent('share_scan_failed', 'elsewhere', new Date(), share), origin: 'remote' });
    // Not a job outcome: never a notification.
    bus.publish(makeEvent('configuration_changed', 'settings changed', new Date()));
    const listed = async (id: number) =>
      (await storage.notificationDeliveries.list(id, { filters: [], sort: [], limit: 20, offset: 0 })).items.map((delivery) => [
        delivery.event_type,
        delivery.message.source,
      ]);
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
      data: { job: { kind: 'share_test', status: 'failed' }, resource: { type: 'nas_share', id: '5', name: 'media' } },
    });
  });
});
