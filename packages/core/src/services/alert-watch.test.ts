import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestDms, type TestDms } from '../testing/test-dms.js';
import { postgresOrSkip } from '../testing/postgres-test-database.js';
import { makeEvent, type DmsEvent } from '../domain/events.js';
import { systemPrincipal } from '../scopes/principal.js';
import type { Core } from './create-core.js';

// Locally a missing server skips with the reason printed; on CI it fails.
const unreachable = await postgresOrSkip('the PostgreSQL half of the alert suite');

for (const adapter of ['sqlite', 'postgres'] as const) {
  describe.skipIf(adapter === 'postgres' && unreachable !== undefined)(`alerts raise and clear (${adapter})`, () => {
    let test: TestDms;
    let core: Core;
    let now = new Date('2026-11-25T12:00:00Z');
    const announced: DmsEvent[] = [];
    beforeEach(async () => {
      now = new Date('2026-11-25T12:00:00Z');
      test = await openTestDms({ adapter, core: { clock: () => now } });
      core = test.dms.core;
      announced.length = 0;
      core.events.subscribe((event) => {
        if (event.name === 'alert_raised' || event.name === 'alert_cleared') announced.push(event);
      });
      test.dms.alertWatch.start(3_600_000);
    });
    afterEach(async () => {
      test.dms.alertWatch.stop();
      await test.close();
    });

    const share = { type: 'nas_share', id: 7, name: 'projects' };
    const open = async () => (await core.alerts.list(systemPrincipal, { cleared_at: ['null'] })).alerts;
    // The bus delivers at once; what the sources do with it is awaited, not slept on.
    const settled = () => test.dms.alertWatch.settled();

    it('a failed test raises share_unreachable once, later failures update it, a passing test clears it; each raise and clear is announced at the alert’s level', async () => {
      core.events.publish(makeEvent('share_test_failed', "share test of 'projects' failed: no such directory", now, share));
      await settled();
      now = new Date('2026-11-25T12:05:00Z');
      core.events.publish(makeEvent('share_test_failed', "share test of 'projects' failed: still gone", now, share));
      await settled();
      const [alert] = await open();
      expect(await open()).toHaveLength(1);
      expect(alert).toMatchObject({
        source: 'share_unreachable',
        level: 4,
        resource: { type: 'nas_shares', id: '7', name: 'projects' },
        message: "share test of 'projects' failed: still gone",
        raised_at: '2026-11-25T12:00:00.000Z',
        last_seen_at: '2026-11-25T12:05:00.000Z',
        cleared_at: null,
      });
      core.events.publish(makeEvent('share_test_completed', "share test of 'projects' completed", now, share));
      await settled();
      expect(await open()).toEqual([]);
      expect(announced.map((event) => [event.name, event.severity, event.alert?.source])).toEqual([
        ['alert_raised', 4, 'share_unreachable'],
        ['alert_cleared', 4, 'share_unreachable'],
      ]);
    });

    it('two sightings in the same millisecond raise once', async () => {
      core.events.publish(makeEvent('share_test_failed', 'failed', now, share));
      core.events.publish(makeEvent('share_test_failed', 'failed again', now, share));
      await settled();
      expect(announced.map((event) => event.name)).toEqual(['alert_raised']);
      expect(await open()).toHaveLength(1);
    });

    it('dismissing keeps the alert open until its condition ends; a source turned off raises nothing and clears what it had open', async () => {
      core.events.publish(makeEvent('share_scan_failed', 'scan failed', now, share));
      await settled();
      const [raised] = await open();
      const dismissed = await core.alerts.update(systemPrincipal, String(raised!.id), { dismissed: true });
      expect(dismissed).toMatchObject({ dismissed_at: now.toISOString(), cleared_at: null });
      await core.alerts.updateSetting(systemPrincipal, 'scan_failed', { enabled: false });
      await settled();
      expect(await open()).toEqual([]);
      core.events.publish(makeEvent('share_scan_failed', 'scan failed again', now, share));
      await settled();
      expect(await open()).toEqual([]);
      const settings = await core.alerts.settings(systemPrincipal);
      expect(settings.alert_settings.find((setting) => setting.source === 'scan_failed')).toMatchObject({ enabled: false, level: 3 });
      await expect(core.alerts.updateSetting(systemPrincipal, 'no_such_source', { level: 2 })).rejects.toMatchObject({ code: 'not_found' });
    });

    it('the sweep raises api_key_expiring for a key expiring within 7 days and clears it once the key is extended', async () => {
      const key = await core.apiKeys.create(systemPrincipal, {
        name: 'ci',
        api_key_scopes: [{ controller: 'nas', action: 'index' }],
        expires_at: '2026-11-28T00:00:00Z',
      });
      await test.dms.alertWatch.sweep();
      expect(await open()).toEqual([expect.objectContaining({ source: 'api_key_expiring', resource: { type: 'api_keys', id: String(key.id), name: 'ci' } })]);
      await core.apiKeys.update(systemPrincipal, String(key.id), { expires_at: '2027-06-01T00:00:00Z' });
      await test.dms.alertWatch.sweep();
      expect(await open()).toEqual([]);
    });
  });
}
