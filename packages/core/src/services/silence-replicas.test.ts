import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDms, type Dms } from '../runtime/open-dms.js';
import { openTestDms, type TestDms } from '../testing/test-dms.js';
import { postgresUnreachable } from '../testing/postgres-test-database.js';
import { systemPrincipal } from '../scopes/principal.js';

/**
 * Issue 44, silences across replicas (docs/decisions/171-silences.md): two replicas on one
 * PostgreSQL database, one clock, sweeping at the same moments after a silence ended, and a
 * sighting racing them: the alert still open is told once, not once per replica.
 */
const unreachable = await postgresUnreachable();
if (unreachable && process.env['CI'] === 'true') throw new Error(`CI runs this on PostgreSQL, but ${unreachable}`);
if (unreachable) console.log(`[skip] silences across replicas on PostgreSQL: ${unreachable}`);

let now = Date.parse('2026-12-01T01:00:00.000Z');
const clock = () => new Date(now);
let first: TestDms;
let second: Dms;
beforeAll(async () => {
  if (unreachable) return;
  first = await openTestDms({ adapter: 'postgres', core: { clock } });
  second = await openDms({
    role: 'command',
    dataDir: first.dataDir,
    databaseUrl: first.databaseUrl!,
    localRoots: [tmpdir()],
    trapSender: null,
    core: { clock },
  });
});
afterAll(async () => {
  if (unreachable) return;
  await second.close();
  await first.close();
});

describe.skipIf(unreachable !== undefined)('two replicas', () => {
  it('tell an alert whose silence ended once', async () => {
    const { core } = first.dms;
    await core.notificationChannels.create(systemPrincipal, { name: 'hook', type: 'webhook', min_level: 1, settings: { url: 'http://127.0.0.1:4/hook' } });
    const targets = Array.from({ length: 6 }, (_, i) => ({ type: 'traps', id: String(i + 1), name: `nms-${i + 1}` }));
    await core.silences.create(systemPrincipal, { matchers: { source: 'trap_target_unreachable' }, ends_at: '2026-12-01T02:00:00Z', reason: 'maintenance' });
    for (const target of targets) await second.core.alerts.sight('trap_target_unreachable', target, 'no answer');
    now = Date.parse('2026-12-01T02:00:00.000Z');
    await Promise.all([
      first.dms.alertWatch.sweep(),
      second.alertWatch.sweep(),
      ...targets.map((target, i) => (i % 2 === 0 ? first.dms : second).core.alerts.sight('trap_target_unreachable', target, 'no answer')),
      first.dms.alertWatch.sweep(),
      second.alertWatch.sweep(),
    ]);
    const { deliveries } = await core.notificationChannels.deliveries(systemPrincipal, 'hook', { limit: ['100'] });
    expect(deliveries.map((delivery) => delivery.event_type)).toEqual(targets.map(() => 'alert.raised'));
    const { alerts } = await core.alerts.list(systemPrincipal, { silenced: ['true'] });
    expect(alerts).toEqual([]);
  });
});
