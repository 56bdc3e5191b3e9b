import { tmpdir } from 'node:os';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeOnEachAdapter, type TestCore } from '../testing/core-on-each-adapter.js';
import { systemPrincipal } from '../scopes/principal.js';
import { isDomainError } from '../errors/domain-error.js';
import type { AuditResource } from '../domain/audit-event.js';

/**
 * Issue 44, silences (docs/api.md#silences): a silenced alert is raised and listed but nothing
 * is queued for the channels; when its silence is over and it is still open it is told once;
 * its clear after that is told. Driven by the injected clock, the sweep called directly.
 */
const hour = 3_600_000;
// A trap target's alert: no sweep clears it by itself (a share's would be, its share being absent).
const target: AuditResource = { type: 'traps', id: '901', name: 'nms.example.com' };
const source = 'trap_target_unreachable';

describeOnEachAdapter('silences', (open) => {
  let t: TestCore;
  let now: number;
  const at = (iso: string) => {
    now = Date.parse(iso);
  };

  beforeEach(async () => {
    now = Date.parse('2026-12-01T01:00:00.000Z');
    t = await open({ clock: () => new Date(now) });
    await t.core.notificationChannels.create(systemPrincipal, { name: 'hook', type: 'webhook', min_level: 1, settings: { url: 'http://127.0.0.1:4/hook' } });
  });
  afterEach(() => t.close());

  /** The event types queued for the channel, oldest first. */
  const told = async () => {
    const { deliveries } = await t.core.notificationChannels.deliveries(systemPrincipal, 'hook', { sort_by: ['id'], limit: ['100'] });
    return deliveries.map((delivery) => delivery.event_type);
  };
  const alert = async () => (await t.core.alerts.list(systemPrincipal, { source: [source], resource_id: ['901'] })).alerts[0];
  const sweep = () => t.dms.alertWatch.sweep();

  it('tells nothing while the silence holds, then once if still open, then the clear', async () => {
    const silence = await t.core.silences.create(systemPrincipal, {
      matchers: { source, resource_id: '901' },
      ends_at: '2026-12-01T03:00:00Z',
      reason: 'moving the rack',
    });
    expect(silence).toMatchObject({ active: true, created_by: null, window_ends_at: '2026-12-01T03:00:00.000Z' });
    await t.core.alerts.sight(source, target, 'gone');
    at('2026-12-01T01:30:00Z');
    await t.core.alerts.sight(source, target, 'still gone', 1);
    await sweep();
    expect(await alert()).toMatchObject({ silenced: true, level: 4, cleared_at: null });
    expect(await told()).toEqual([]);
    // Another alert, not matched, is told as ever.
    await t.core.alerts.sight(source, { ...target, id: '902' }, 'gone');
    expect(await told()).toEqual(['alert.raised']);

    at('2026-12-01T03:00:00Z');
    await sweep();
    await sweep();
    expect(await told()).toEqual(['alert.raised', 'alert.raised']);
    expect(await alert()).toMatchObject({ silenced: false });
    await t.core.alerts.clear(source, target);
    expect(await told()).toEqual(['alert.raised', 'alert.raised', 'alert.cleared']);
  });

  it('a clear inside the silence is not told, and nothing follows its end', async () => {
    const { id } = await t.core.silences.create(systemPrincipal, { matchers: { resource_type: 'traps' }, ends_at: '2026-12-01T02:00:00Z', reason: 'r' });
    await t.core.alerts.sight(source, target, 'gone');
    await t.core.alerts.clear(source, target);
    expect((await alert())!.silenced).toBe(true);
    await t.core.silences.destroy(systemPrincipal, String(id));
    await sweep();
    expect(await told()).toEqual([]);
  });

  it('deleting the silence tells the open alert once; a sighting racing the sweep does not tell it twice', async () => {
    const { id } = await t.core.silences.create(systemPrincipal, { matchers: { max_level: 4 }, until_cleared: true, reason: 'known' });
    await t.core.alerts.sight(source, target, 'gone');
    expect((await alert())!.silenced).toBe(true);
    await t.core.silences.destroy(systemPrincipal, String(id));
    await Promise.all([sweep(), t.core.alerts.sight(source, target, 'gone'), sweep()]);
    expect(await told()).toEqual(['alert.raised']);
  });

  it('a level above max_level is not silenced: its change is told', async () => {
    await t.core.silences.create(systemPrincipal, { matchers: { max_level: 4 }, until_cleared: true, reason: 'minor only' });
    await t.core.alerts.sight(source, target, 'gone');
    expect(await told()).toEqual([]);
    await t.core.alerts.sight(source, target, 'worse', 2);
    expect(await told()).toEqual(['alert.raised']);
  });

  it('until_cleared ends when the alert it matches clears; the next raise is told', async () => {
    const silence = await t.core.silences.create(systemPrincipal, {
      matchers: { source, resource_type: 'traps', resource_id: '901' },
      until_cleared: true,
      reason: 'until fixed',
    });
    expect(silence).toMatchObject({ active: true, window_ends_at: null, ends_at: null });
    await t.core.alerts.sight(source, target, 'gone');
    at('2026-12-01T05:00:00Z');
    await t.core.alerts.clear(source, target);
    expect(await t.core.silences.show(systemPrincipal, String(silence.id))).toMatchObject({ active: false, ends_at: '2026-12-01T05:00:00.000Z' });
    await expect(t.core.silences.update(systemPrincipal, String(silence.id), { reason: 'again' })).rejects.toThrow(/ended at .*: create another one/);
    await t.core.alerts.sight(source, target, 'gone again');
    expect(await told()).toEqual(['alert.raised']);
  });

  it('an rrule window silences inside each occurrence only, and moves on', async () => {
    const silence = await t.core.silences.create(systemPrincipal, {
      matchers: { source },
      rrule: 'DTSTART:20261201T020000Z\nRRULE:FREQ=DAILY',
      duration_seconds: 3600,
      reason: 'nightly backup',
    });
    expect(silence).toMatchObject({ active: false, window_starts_at: '2026-12-01T02:00:00.000Z', window_ends_at: '2026-12-01T03:00:00.000Z' });
    at('2026-12-01T02:10:00Z');
    await t.core.alerts.sight(source, target, 'gone');
    expect(await told()).toEqual([]);
    at('2026-12-01T03:30:00Z');
    await sweep();
    expect(await t.core.silences.show(systemPrincipal, String(silence.id))).toMatchObject({
      active: false,
      window_starts_at: '2026-12-02T02:00:00.000Z',
    });
    expect(await told()).toEqual(['alert.raised']);
    now += 23 * hour;
    await sweep();
    expect((await alert())!.silenced).toBe(true);
    await t.core.alerts.clear(source, target);
    expect(await told()).toEqual(['alert.raised']);
  });

  it('nas_id and pool_id match alerts about that NAS or pool or a share on it', async () => {
    const nas = await t.core.nas.create(systemPrincipal, { name: 'local', host: 'localhost', type: 'local' });
    const inPool = await t.core.shares.create(systemPrincipal, String(nas.id), { name: 'in-pool', path: tmpdir() });
    const alone = await t.core.shares.create(systemPrincipal, String(nas.id), { name: 'alone', path: tmpdir() });
    const pool = await t.core.pools.create(systemPrincipal, { name: 'tier1' });
    await t.core.pools.update(systemPrincipal, String(pool.id), { nas_share_ids: [inPool.id] });
    await t.core.silences.create(systemPrincipal, { matchers: { nas_id: nas.id, source: 'share_unreachable' }, until_cleared: true, reason: 'nas work' });
    await t.core.silences.create(systemPrincipal, { matchers: { pool_id: pool.id, source: 'scan_failed' }, until_cleared: true, reason: 'pool work' });
    const about = (s: { id: number; name: string }) => ({ type: 'nas_shares', id: String(s.id), name: s.name });
    await t.core.alerts.sight('share_unreachable', about(inPool), 'gone');
    await t.core.alerts.sight('scan_failed', about(inPool), 'failed');
    await t.core.alerts.sight('scan_failed', about(alone), 'failed');
    await t.core.alerts.sight('share_unreachable', { type: 'nas_shares', id: '999999', name: 'elsewhere' }, 'gone');
    const { alerts } = await t.core.alerts.list(systemPrincipal, { sort_by: ['id'] });
    expect(alerts.map((a) => [a.source, a.resource?.name, a.silenced])).toEqual([
      ['share_unreachable', 'in-pool', true],
      ['scan_failed', 'in-pool', true],
      ['scan_failed', 'alone', false],
      ['share_unreachable', 'elsewhere', false],
    ]);
    expect((await t.core.alerts.list(systemPrincipal, { silenced: ['true'] })).count).toBe(2);
  });

  it('refuses what cannot hold, saying why', async () => {
    const refusal = async (body: Record<string, unknown>) => {
      try {
        await t.core.silences.create(systemPrincipal, { matchers: { source: 'scan_failed' }, reason: 'r', ...body });
      } catch (error) {
        if (isDomainError(error)) return `${error.code}: ${error.message}`;
        throw error;
      }
      throw new Error('accepted');
    };
    expect(await refusal({})).toMatch(/validation: set exactly one of ends_at/);
    expect(await refusal({ ends_at: '2026-12-01T05:00:00Z', until_cleared: true })).toMatch(/exactly one/);
    expect(await refusal({ starts_at: '2026-12-01T06:00:00Z', ends_at: '2026-12-01T05:00:00Z' })).toMatch(/ends_at .* must be after starts_at/);
    expect(await refusal({ ends_at: '2026-11-30T05:00:00Z' })).toMatch(/already past/);
    expect(await refusal({ rrule: 'DTSTART:20261201T020000Z\nRRULE:FREQ=DAILY' })).toMatch(/needs duration_seconds/);
    expect(await refusal({ rrule: 'DTSTART:20261201T020000Z\nRRULE:FREQ=MINUTELY', duration_seconds: 3600 })).toMatch(/^validation: rrule/);
    expect(await refusal({ rrule: 'RRULE:FREQ=DAILY', duration_seconds: 3600 })).toMatch(/DTSTART/);
    expect(await refusal({ matchers: {}, until_cleared: true })).toMatch(/at least one matcher/);
    expect(await refusal({ matchers: { source: 'nope' }, until_cleared: true })).toMatch(/source/);
  });
});
