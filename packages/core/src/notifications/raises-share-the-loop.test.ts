import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDms, type TestDms } from '../testing/test-dms.js';
import { startHttpReceiver, type HttpReceiver } from '../testing/http-receiver.js';
import { systemPrincipal } from '../scopes/principal.js';

/**
 * Issue 44's dispatch latency (docs/decisions/184-notifications-share-the-loop.md): on SQLite a
 * transaction resolves without leaving the microtask queue, so raises awaited one after the
 * other held the event loop until the last, and the dispatcher (timers, sockets) sent nothing
 * meanwhile. Each alert transaction now waits for a turn of the loop first.
 */
let test: TestDms;
let receiver: HttpReceiver;
beforeAll(async () => {
  receiver = await startHttpReceiver(() => 204);
  test = await openTestDms({ adapter: 'sqlite' });
  await test.dms.core.notificationChannels.create(systemPrincipal, { name: 'hook', type: 'webhook', min_level: 1, settings: { url: `${receiver.url}/hook` } });
});
afterAll(async () => {
  await test.dms.notifications.stop();
  await test.close();
  await receiver.close();
});

const share = (n: number) => ({ type: 'nas_shares', id: String(n), name: `share-${n}` });

describe('a run of raises on SQLite', () => {
  it('lets the loop turn once a raise at least', async () => {
    let turns = 0;
    let done = false;
    const turn = () => {
      turns += 1;
      if (!done) setImmediate(turn);
    };
    setImmediate(turn);
    for (let n = 1; n <= 50; n += 1) await test.dms.core.alerts.sight('share_unreachable', share(n), 'gone');
    done = true;
    expect(turns).toBeGreaterThanOrEqual(50);
  });

  it('has its first notifications sent before it ends', async () => {
    test.dms.notifications.start();
    for (let n = 101; n <= 300; n += 1) await test.dms.core.alerts.sight('share_unreachable', share(n), 'gone');
    // Counted as the last raise resolves: a loop held by the raises would have let none out yet.
    const ofThisRun = receiver.requests.filter((request) => Number(JSON.parse(request.body).data.alert.resource.id) >= 101);
    expect(ofThisRun.length).toBeGreaterThan(0);
  });
});
