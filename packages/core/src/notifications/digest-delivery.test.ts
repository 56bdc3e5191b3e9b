import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDms, type Dms } from '../runtime/open-dms.js';
import { openTestDms, type TestAdapter, type TestDms } from '../testing/test-dms.js';
import { postgresUnreachable } from '../testing/postgres-test-database.js';
import { systemPrincipal } from '../scopes/principal.js';
import { startHttpReceiver, type HttpReceiver } from '../testing/http-receiver.js';
import type { DigestMessageData } from '../domain/notification-message.js';
import { digestPeriodEnd } from './notification-digest.js';

/**
 * Issue 44, digests (docs/decisions/173-notification-digests.md), done when: an hourly channel
 * gets one message per hour listing what was raised and cleared in it, none for an hour where
 * nothing happened, its events never one by one; across a restart mid-period; once with two
 * replicas of one PostgreSQL database reaching the hour's end together. The clock is the test's.
 */
const unreachable = await postgresUnreachable();
if (unreachable && process.env['CI'] === 'true') throw new Error(`CI runs this on PostgreSQL, but ${unreachable}`);
if (unreachable) console.log(`[skip] digests on PostgreSQL: ${unreachable}`);
const adapters: TestAdapter[] = unreachable ? ['sqlite'] : ['sqlite', 'postgres'];

let now = new Date('2026-11-28T08:10:00.000Z');
const clock = () => now;
let receiver: HttpReceiver;
beforeAll(async () => {
  receiver = await startHttpReceiver(() => 204);
});
afterAll(async () => {
  await receiver.close();
});

interface DigestBody {
  type: string;
  data: DigestMessageData;
}
const bodiesAt = (path: string) => receiver.requests.filter((request) => request.path === path).map((request) => JSON.parse(request.body) as DigestBody);
const share = (n: number) => ({ type: 'nas_shares', id: String(n), name: `share-${n}` });

/** A second service on the same data (dir or PostgreSQL database), as a replica or after a restart. */
const reopen = (first: TestDms): Promise<Dms> =>
  openDms({
    role: 'command',
    dataDir: first.dataDir,
    ...(first.databaseUrl ? { databaseUrl: first.databaseUrl } : {}),
    localRoots: [tmpdir()],
    trapSender: null,
    core: { clock },
  });

describe('digestPeriodEnd', () => {
  it('ends an hourly period on the hour and a daily one at its hour, UTC', () => {
    const at = new Date('2026-11-28T07:30:00.000Z');
    expect(digestPeriodEnd({ digest: 'hourly', digest_hour: 8 }, at).toISOString()).toBe('2026-11-28T07:00:00.000Z');
    expect(digestPeriodEnd({ digest: 'daily', digest_hour: 8 }, at).toISOString()).toBe('2026-11-27T08:00:00.000Z');
    expect(digestPeriodEnd({ digest: 'daily', digest_hour: 6 }, at).toISOString()).toBe('2026-11-28T06:00:00.000Z');
    expect(digestPeriodEnd({ digest: 'immediately', digest_hour: 8 }, at)).toBe(at);
  });
});

describe.each(adapters)('digests on %s', (adapter) => {
  let first: TestDms;
  beforeAll(async () => {
    first = await openTestDms({ adapter, core: { clock } });
  });
  afterAll(async () => {
    await first?.close();
  });

  it('an hourly channel gets the hour’s raises and clears once, across a restart mid-hour, and nothing for a quiet hour', async () => {
    now = new Date('2026-11-28T08:10:00.000Z');
    const path = `/${adapter}/hourly`;
    const { core, notifications } = first.dms;
    await core.notificationChannels.create(systemPrincipal, {
      name: `hourly-${adapter}`,
      type: 'webhook',
      min_level: 1,
      digest: 'hourly',
      settings: { url: `${receiver.url}${path}` },
    });
    await core.notificationChannels.create(systemPrincipal, {
      name: `now-${adapter}`,
      type: 'webhook',
      min_level: 1,
      settings: { url: `${receiver.url}${path}-now` },
    });
    await core.alerts.sight('share_unreachable', share(1), 'gone');
    await core.alerts.sight('share_unreachable', share(2), 'gone');
    now = new Date('2026-11-28T08:20:00.000Z');
    await core.alerts.clear('share_unreachable', share(1));
    // one delivery per channel and round: a channel's messages go in order
    for (let round = 0; round < 4; round += 1) await notifications.runOnce();
    // The immediate channel got its three; the hourly one nothing yet.
    expect(bodiesAt(`${path}-now`).map((body) => body.type)).toEqual(['alert.raised', 'alert.raised', 'alert.cleared']);
    expect(bodiesAt(path)).toEqual([]);

    // A restart mid-hour: what waits is stored, not held in memory.
    const restarted = await reopen(first);
    try {
      now = new Date('2026-11-28T08:59:59.000Z');
      await restarted.notifications.runOnce();
      expect(bodiesAt(path)).toEqual([]);
      now = new Date('2026-11-28T09:00:02.000Z');
      await restarted.notifications.runOnce();
      await restarted.notifications.runOnce();
      const [digest, ...more] = bodiesAt(path);
      expect(more).toEqual([]);
      expect(digest?.type).toBe('digest');
      const { from, to, raised, cleared, count, events } = digest!.data.digest;
      expect({ from, to, raised, cleared, count }).toEqual({
        from: '2026-11-28T08:00:00.000Z',
        to: '2026-11-28T09:00:00.000Z',
        raised: 2,
        cleared: 1,
        count: 3,
      });
      expect(events.map((event) => `${event.type} ${'alert' in event.data ? event.data.alert.resource?.id : ''}`)).toEqual([
        'alert.raised 1',
        'alert.raised 2',
        'alert.cleared 1',
      ]);

      // An hour where nothing happened: no message.
      now = new Date('2026-11-28T10:00:02.000Z');
      await restarted.notifications.runOnce();
      expect(bodiesAt(path)).toHaveLength(1);
      const channel = await restarted.core.notificationChannels.show(systemPrincipal, `hourly-${adapter}`);
      const deliveries = await restarted.core.notificationChannels.deliveries(systemPrincipal, String(channel.id), {});
      expect(deliveries.deliveries.map((delivery) => [delivery.event_type, delivery.outcome])).toEqual([['digest', 'delivered']]);
    } finally {
      await restarted.close();
    }
  });

  it('refuses a digest on an alertmanager channel, and takes a daily hour 0-23', async () => {
    await expect(
      first.dms.core.notificationChannels.create(systemPrincipal, {
        name: 'am',
        type: 'alertmanager',
        digest: 'daily',
        settings: { url: 'http://127.0.0.1:9093' },
      }),
    ).rejects.toMatchObject({ code: 'validation', details: { digest: [{ error: 'invalid', value: 'daily' }] } });
    await expect(
      first.dms.core.notificationChannels.create(systemPrincipal, {
        name: 'late',
        type: 'webhook',
        digest: 'daily',
        digest_hour: 24,
        settings: { url: 'http://127.0.0.1:9/x' },
      }),
    ).rejects.toMatchObject({ code: 'validation' });
    const daily = await first.dms.core.notificationChannels.create(systemPrincipal, {
      name: `daily-${adapter}`,
      type: 'webhook',
      digest: 'daily',
      digest_hour: 6,
      settings: { url: 'http://127.0.0.1:9/x' },
    });
    expect({ digest: daily.digest, digest_hour: daily.digest_hour }).toEqual({ digest: 'daily', digest_hour: 6 });
    expect(daily).not.toHaveProperty('digested_until');
  });
});

describe.skipIf(unreachable !== undefined)('two replicas on PostgreSQL', () => {
  let first: TestDms;
  let second: Dms;
  beforeAll(async () => {
    now = new Date('2026-11-28T11:05:00.000Z');
    first = await openTestDms({ adapter: 'postgres', core: { clock } });
    second = await reopen(first);
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('make the hour’s digest once, each event in it once', async () => {
    const path = '/replicas/hourly';
    await first.dms.core.notificationChannels.create(systemPrincipal, {
      name: 'hourly',
      type: 'webhook',
      min_level: 1,
      digest: 'hourly',
      settings: { url: `${receiver.url}${path}` },
    });
    const shares = Array.from({ length: 6 }, (_, i) => share(i + 1));
    for (const one of shares) await first.dms.core.alerts.sight('share_unreachable', one, 'gone');
    for (const one of shares) await second.core.alerts.clear('share_unreachable', one);
    now = new Date('2026-11-28T12:00:01.000Z');
    for (let round = 0; round < 5; round += 1) await Promise.all([first.dms.notifications.runOnce(), second.notifications.runOnce()]);
    const digests = bodiesAt(path);
    expect(digests).toHaveLength(1);
    const ids = digests[0]!.data.digest.events.map((event) => event.id);
    expect(new Set(ids).size).toBe(12);
    expect(digests[0]!.data.digest).toMatchObject({ raised: 6, cleared: 6, omitted: 0 });
  });
});
