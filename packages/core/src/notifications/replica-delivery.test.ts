import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDms, type Dms } from '../runtime/open-dms.js';
import { openTestDms, type TestDms } from '../testing/test-dms.js';
import { postgresUnreachable } from '../testing/postgres-test-database.js';
import { systemPrincipal } from '../scopes/principal.js';
import { startHttpReceiver, type HttpReceiver } from '../testing/http-receiver.js';

/**
 * Issue 44, done when: two replicas on one PostgreSQL database (two openDms) dispatch side by
 * side, round after round at the same moment, and every event reaches every channel once, in
 * order per channel.
 */
const unreachable = await postgresUnreachable();
if (unreachable && process.env['CI'] === 'true') throw new Error(`CI runs this on PostgreSQL, but ${unreachable}`);
if (unreachable) console.log(`[skip] replica delivery on PostgreSQL: ${unreachable}`);

let first: TestDms;
let second: Dms;
let receiver: HttpReceiver;
beforeAll(async () => {
  if (unreachable) return;
  receiver = await startHttpReceiver();
  first = await openTestDms({ adapter: 'postgres' });
  second = await openDms({ role: 'command', dataDir: first.dataDir, databaseUrl: first.databaseUrl!, localRoots: [tmpdir()], trapSender: null });
});
afterAll(async () => {
  if (unreachable) return;
  await second.close();
  await first.close();
  await receiver.close();
});

describe.skipIf(unreachable !== undefined)('two replicas', () => {
  it('deliver each event once on each channel, in order', async () => {
    const { core } = first.dms;
    const channels = ['one', 'two', 'three'];
    for (const name of channels)
      await core.notificationChannels.create(systemPrincipal, { name, type: 'webhook', min_level: 1, settings: { url: `${receiver.url}/${name}` } });
    const shares = Array.from({ length: 8 }, (_, i) => ({ type: 'nas_shares', id: String(i + 1), name: `share-${i + 1}` }));
    // Raised on one replica, cleared on the other: both queue into the one table.
    for (const share of shares) await core.alerts.sight('share_unreachable', share, 'gone');
    for (const share of shares) await second.core.alerts.clear('share_unreachable', share);
    const expected = shares.length * 2 * channels.length;
    for (let round = 0; round < 100 && receiver.requests.length < expected; round += 1) {
      await Promise.all([first.dms.notifications.runOnce(), second.notifications.runOnce()]);
    }
    expect(receiver.requests).toHaveLength(expected);
    for (const name of channels) {
      const got = receiver.requests.filter((request) => request.path === `/${name}`);
      const ids = got.map((request) => String(request.headers['webhook-id']));
      expect(new Set(ids).size).toBe(shares.length * 2);
      const sequence = got.map((request) => {
        const body = JSON.parse(request.body) as { type: string; data: { alert: { resource: { id: string } } } };
        return `${body.type} ${body.data.alert.resource.id}`;
      });
      expect(sequence).toEqual([...shares.map((share) => `alert.raised ${share.id}`), ...shares.map((share) => `alert.cleared ${share.id}`)]);
    }
  });
});
