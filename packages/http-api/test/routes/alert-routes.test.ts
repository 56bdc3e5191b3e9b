import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { alertSourceCatalogue, alertSources, systemPrincipal, type AlertSetting, type AuditEvent } from '@dms/core';
import { createTestApp, type TestApp } from '../../src/testing/test-app.js';
import {
  addNas,
  addShare,
  addUser,
  expectModelError,
  principalOf,
  raiseAlert,
  readJson,
  unique,
  type Alert,
  type NasShare,
  type User,
} from '../../src/testing/fixtures.js';

/**
 * /alerts and /alert_settings (issue 23, docs/decisions/091-alerts.md) over REST. The alert of a share is raised
 * the way the service raises it: a test job that really fails on a local share whose directory
 * is gone, told to the alert watch by the job's event; it clears when a test passes again.
 */

interface AlertCollection {
  count: number;
  alerts: Alert[];
}

const api = (path: string) => `/api/v2${path}`;
const basicOf = (user: Pick<User, 'username'>, password = 'user-password-1') => `Basic ${Buffer.from(`${user.username}:${password}`).toString('base64')}`;

describe('/alerts', () => {
  let t: TestApp;
  let root: string;
  let share: NasShare;

  async function alerts(query: string): Promise<AlertCollection> {
    const res = await t.call('GET', api(`/alerts${query}`), { auth: t.basic });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    return JSON.parse(text) as AlertCollection;
  }

  /** Tests the share over REST and follows the job until it has finished. */
  async function test(): Promise<'completed' | 'failed'> {
    const started = await t.call('PUT', api(`/nas_shares/${share.id}/test`), { auth: t.basic });
    expect(started.status, await started.clone().text()).toBe(202);
    const { job_id: jobId } = await readJson<{ job_id: string }>(started);
    for (;;) {
      const res = await t.call('GET', api(`/jobs/${jobId}?wait=10`), { auth: t.basic });
      if (res.status === 200) return (await readJson<{ status: 'completed' | 'failed' }>(res)).status;
      expect(res.status).toBe(202);
    }
  }

  /** The share's open share_unreachable alerts, once the alert watch has acted on every event so far. */
  async function openOfShare(): Promise<Alert[]> {
    await t.alertWatch.settled();
    return (await alerts(`?source=share_unreachable&resource_type=nas_shares&resource_id=${share.id}&cleared_at=null`)).alerts;
  }

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'dms-alerts-'));
    mkdirSync(join(root, 'watched'));
    writeFileSync(join(root, 'watched', 'a.txt'), 'abc');
    t = await createTestApp({ localRoots: [root] });
    share = await addShare(t, await addNas(t, { type: 'local', host: 'localhost' }), { path: 'watched' });
    await t.engine.start();
    t.alertWatch.start();
  });
  afterAll(async () => {
    await t.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('raises share_unreachable once when a test fails, updates it while tests keep failing, clears it when one passes', async () => {
    expect(await test()).toBe('completed');
    expect(await openOfShare()).toEqual([]);

    rmSync(join(root, 'watched'), { recursive: true });
    expect(await test()).toBe('failed');
    // The job's event reaches the alert watch after the job is stored as finished.
    await vi.waitFor(async () => expect(await openOfShare()).toHaveLength(1), { timeout: 10_000, interval: 50 });
    const [raised] = await openOfShare();
    expect(raised).toMatchObject({
      source: 'share_unreachable',
      level: 4,
      resource: { type: 'nas_shares', id: String(share.id), name: share.name },
      cleared_at: null,
      dismissed_at: null,
    });
    expect(raised!.message.length).toBeGreaterThan(0);
    expect(raised!.last_seen_at).toBe(raised!.raised_at);
    expect(await readJson<NasShare>(await t.call('GET', api(`/nas_shares/${share.id}`), { auth: t.basic }))).toMatchObject({
      health: 'unreachable',
      last_test_status: 'failed',
    });

    expect(await test()).toBe('failed');
    await vi.waitFor(async () => expect((await openOfShare())[0]!.last_seen_at).not.toBe(raised!.raised_at), { timeout: 10_000, interval: 50 });
    const updated = await openOfShare();
    expect(updated).toHaveLength(1);
    expect(updated[0]).toMatchObject({ id: raised!.id, raised_at: raised!.raised_at });

    mkdirSync(join(root, 'watched'));
    expect(await test()).toBe('completed');
    await vi.waitFor(async () => expect(await openOfShare()).toEqual([]), { timeout: 10_000, interval: 50 });
    const cleared = await readJson<Alert>(await t.call('GET', api(`/alerts/${raised!.id}`), { auth: t.basic }));
    expect(cleared.cleared_at).not.toBeNull();
    expect(Date.parse(cleared.cleared_at!)).toBeGreaterThanOrEqual(Date.parse(cleared.last_seen_at));
    expect((await readJson<NasShare>(await t.call('GET', api(`/nas_shares/${share.id}`), { auth: t.basic }))).health).toBe('ok');
    const ofShare = await alerts(`?resource_type=nas_shares&resource_id=${share.id}`);
    expect(ofShare.alerts.map((alert) => alert.id)).toEqual([raised!.id]);
  });

  it('lists newest first by default, sorts and filters on level, source and the open ones', async () => {
    const first = await raiseAlert(t, await addShare(t, await addNas(t)), 'scan_failed');
    const second = await raiseAlert(t, await addShare(t, await addNas(t)), 'share_unreachable');
    const all = await alerts('?limit=100');
    expect(all.count).toBe(all.alerts.length);
    const raisedAt = all.alerts.map((alert) => alert.raised_at);
    expect(raisedAt).toEqual([...raisedAt].sort().reverse());
    expect(all.alerts.findIndex((alert) => alert.id === second.id)).toBeLessThan(all.alerts.findIndex((alert) => alert.id === first.id));
    const oldestFirst = await alerts('?sort_by=raised_at&limit=100');
    expect(oldestFirst.alerts.map((alert) => alert.id)).toEqual([...all.alerts].reverse().map((alert) => alert.id));
    const scanFailed = await alerts('?source=scan_failed&cleared_at=null');
    expect(scanFailed.alerts.map((alert) => alert.id)).toContain(first.id);
    expect(scanFailed.alerts.every((alert) => alert.source === 'scan_failed' && alert.level === 3 && alert.cleared_at === null)).toBe(true);
    const severe = await alerts('?level=%3E%3D4');
    expect(severe.alerts.map((alert) => alert.id)).toContain(second.id);
    expect(severe.alerts.every((alert) => alert.level >= 4)).toBe(true);
    await expectModelError(await t.call('GET', api('/alerts?message=x'), { auth: t.basic }), 400, 'message', 'invalid');
    await expectModelError(await t.call('GET', api('/alerts?level=high'), { auth: t.basic }), 400, 'level', 'invalid');
  });

  it('shows one alert by id; an unknown or non-numeric id is 404', async () => {
    const raised = await raiseAlert(t, await addShare(t, await addNas(t)));
    const res = await t.call('GET', api(`/alerts/${raised.id}`), { auth: t.basic });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBeTruthy();
    expect(await res.json()).toEqual(raised);
    await expectModelError(await t.call('GET', api('/alerts/987654'), { auth: t.basic }), 404, 'alert_id', 'not_found');
    await expectModelError(await t.call('GET', api('/alerts/share_unreachable'), { auth: t.basic }), 404, 'alert_id', 'not_found');
  });

  it('dismisses an alert and takes the dismissal back; the alert stays open; recorded in the audit log', async () => {
    const raised = await raiseAlert(t, await addShare(t, await addNas(t)));
    const dismissing = await t.call('PUT', api(`/alerts/${raised.id}`), { auth: t.basic, body: { dismissed: true } });
    expect(dismissing.status, await dismissing.clone().text()).toBe(200);
    const dismissed = await readJson<Alert>(dismissing);
    expect(dismissed).toEqual({ ...raised, dismissed_at: expect.any(String) as string });
    // Dismissing again keeps when it was first dismissed.
    expect(await readJson<Alert>(await t.call('PUT', api(`/alerts/${raised.id}`), { auth: t.basic, body: { dismissed: true } }))).toEqual(dismissed);
    const unseen = await alerts('?cleared_at=null&dismissed_at=null&limit=100');
    expect(unseen.alerts.map((alert) => alert.id)).not.toContain(raised.id);
    // A GET body with `dismissed` added: its read-only fields are ignored.
    const back = await t.call('PUT', api(`/alerts/${raised.id}`), {
      auth: t.basic,
      body: { ...dismissed, level: 1, cleared_at: '2000-01-01T00:00:00Z', dismissed: false },
    });
    expect(await readJson<Alert>(back)).toEqual(raised);

    const { audit_events: events } = await readJson<{ audit_events: AuditEvent[] }>(
      await t.call('GET', api(`/audit_events?resource_type=alerts&resource_id=${raised.id}&sort_by=id`), { auth: t.basic }),
    );
    expect(events.map((event) => [event.action, event.via, event.changes])).toEqual([
      ['update', 'rest', { dismissed: { from: false, to: true } }],
      // The second dismissal changed nothing, but was asked for: it is on record too, with no changes.
      ['update', 'rest', null],
      ['update', 'rest', { dismissed: { from: true, to: false } }],
    ]);
    expect(events[0]!.request_id).toBe(dismissing.headers.get('x-request-id'));
  });

  it('refuses a body without dismissed, with a field it does not take, or not a boolean (422); an unknown alert is 404', async () => {
    const raised = await raiseAlert(t, await addShare(t, await addNas(t)));
    await expectModelError(await t.call('PUT', api(`/alerts/${raised.id}`), { auth: t.basic, body: {} }), 422, 'dismissed', 'blank');
    await expectModelError(await t.call('PUT', api(`/alerts/${raised.id}`), { auth: t.basic, body: { dismissed: 'yes' } }), 422, 'dismissed', 'invalid');
    await expectModelError(await t.call('PUT', api(`/alerts/${raised.id}`), { auth: t.basic, body: { dismissed: true, note: 'x' } }), 422, 'note', 'unknown');
    await expectModelError(await t.call('PUT', api('/alerts/987654'), { auth: t.basic, body: { dismissed: true } }), 404, 'alert_id', 'not_found');
    expect(await readJson<Alert>(await t.call('GET', api(`/alerts/${raised.id}`), { auth: t.basic }))).toEqual(raised);
  });
});

describe('/alert_settings', () => {
  let t: TestApp;
  let plain: User;

  async function settings(auth = t.basic): Promise<{ count: number; alert_settings: AlertSetting[] }> {
    const res = await t.call('GET', api('/alert_settings'), { auth });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    return JSON.parse(text) as { count: number; alert_settings: AlertSetting[] };
  }

  beforeAll(async () => {
    t = await createTestApp();
    plain = await addUser(t, { username: unique('plain') });
  });
  afterAll(() => t.close());

  it('lists one row per source, in the catalogue’s order, each at its default until changed', async () => {
    const listed = await settings();
    expect(listed.count).toBe(alertSources.length);
    expect(listed.alert_settings).toEqual(
      alertSources.map((source) => ({
        source,
        enabled: true,
        level: alertSourceCatalogue[source].level,
        description: alertSourceCatalogue[source].description,
        ...(source === 'share_nearly_full' ? { warning_percent: 80, critical_percent: 90 } : {}),
        ...(source === 'share_full_soon' ? { days: 30 } : {}),
        raise_after_seconds: null,
        clear_after_seconds: 0,
      })),
    );
    expect(listed.alert_settings.map((setting) => setting.source)).toEqual([
      'share_unreachable',
      'scan_failed',
      'schedule_missed',
      'schedule_stopped',
      'schedule_run_incomplete',
      'api_key_expiring',
      'storage_degraded',
      'job_queue_saturated',
      'trap_target_unreachable',
      'notification_channel_failing',
      'share_nearly_full',
      'share_full_soon',
    ]);
  });

  it('issue 42 item 5: the capacity sources carry their thresholds, and only theirs take them', async () => {
    const put = (source: string, body: Record<string, unknown>) => t.call('PUT', api(`/alert_settings/${source}`), { auth: t.basic, body });
    const res = await put('share_nearly_full', { warning_percent: 70, critical_percent: 85 });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({ source: 'share_nearly_full', warning_percent: 70, critical_percent: 85 });
    expect((await settings()).alert_settings.find((row) => row.source === 'share_nearly_full')).toMatchObject({ warning_percent: 70, critical_percent: 85 });
    expect((await (await put('share_full_soon', { days: 14 })).json()) as unknown).toMatchObject({ days: 14 });
    await expectModelError(await put('scan_failed', { days: 3 }), 422, 'days', 'invalid');
    await expectModelError(await put('share_full_soon', { warning_percent: 50 }), 422, 'warning_percent', 'invalid');
    await expectModelError(await put('share_nearly_full', { warning_percent: 95 }), 422, 'critical_percent', 'invalid');
    await expectModelError(await put('share_nearly_full', { critical_percent: 101 }), 422, 'critical_percent', 'less_than_or_equal_to');
  });

  it('issue 44 flap damping: raise_after_seconds (null: automatic) and clear_after_seconds are set, listed, audited, and bounded 0–86400', async () => {
    const put = (body: Record<string, unknown>) => t.call('PUT', api('/alert_settings/schedule_missed'), { auth: t.basic, body });
    const res = await put({ raise_after_seconds: 600, clear_after_seconds: 120 });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({ source: 'schedule_missed', raise_after_seconds: 600, clear_after_seconds: 120 });
    expect((await settings()).alert_settings.find((row) => row.source === 'schedule_missed')).toMatchObject({
      raise_after_seconds: 600,
      clear_after_seconds: 120,
    });
    expect(await readJson<AlertSetting>(await put({ raise_after_seconds: null }))).toMatchObject({ raise_after_seconds: null, clear_after_seconds: 120 });
    const { audit_events: events } = await readJson<{ audit_events: AuditEvent[] }>(
      await t.call('GET', api('/audit_events?resource_type=alert_settings&resource_id=schedule_missed'), { auth: t.basic }),
    );
    expect(events[0]!.changes).toEqual({ raise_after_seconds: { from: 600, to: null } });
    const below = await expectModelError(await put({ raise_after_seconds: -1 }), 422, 'raise_after_seconds', 'greater_than_or_equal_to');
    expect(below.messages).toEqual(['raise_after_seconds must be between 0 and 86400']);
    const above = await expectModelError(await put({ clear_after_seconds: 86_401 }), 422, 'clear_after_seconds', 'less_than_or_equal_to');
    expect(above.messages).toEqual(['clear_after_seconds must be between 0 and 86400']);
    await expectModelError(await put({ raise_after_seconds: 1.5 }), 422, 'raise_after_seconds', 'invalid');
    await expectModelError(await put({ raise_after_seconds: '300' }), 422, 'raise_after_seconds', 'invalid');
    await expectModelError(await put({ clear_after_seconds: null }), 422, 'clear_after_seconds', 'blank');
    expect((await settings()).alert_settings.find((row) => row.source === 'schedule_missed')).toMatchObject({
      raise_after_seconds: null,
      clear_after_seconds: 120,
    });
  });

  it('changes a level (admin only): alerts raised from then on carry it; listed with the change; recorded in the audit log', async () => {
    const res = await t.call('PUT', api('/alert_settings/scan_failed'), { auth: t.basic, body: { level: 5 } });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual({
      source: 'scan_failed',
      enabled: true,
      level: 5,
      description: alertSourceCatalogue.scan_failed.description,
      raise_after_seconds: null,
      clear_after_seconds: 0,
    });
    expect((await settings()).alert_settings.find((setting) => setting.source === 'scan_failed')).toMatchObject({ level: 5 });
    const raised = await raiseAlert(t, await addShare(t, await addNas(t)), 'scan_failed');
    expect(raised.level).toBe(5);
    const { audit_events: events } = await readJson<{ audit_events: AuditEvent[] }>(
      await t.call('GET', api('/audit_events?resource_type=alert_settings&resource_id=scan_failed'), { auth: t.basic }),
    );
    expect(events[0]).toMatchObject({
      action: 'settings_changed',
      via: 'rest',
      changes: { level: { from: 3, to: 5 } },
      request_id: res.headers.get('x-request-id'),
    });
  });

  it('turned off, a source clears its open alerts and raises no more; turned on again, it does', async () => {
    const open = await raiseAlert(t, await addShare(t, await addNas(t)), 'share_unreachable');
    const off = await t.call('PUT', api('/alert_settings/share_unreachable'), { auth: t.basic, body: { enabled: false } });
    expect(await readJson<AlertSetting>(off)).toMatchObject({ enabled: false, level: 4 });
    expect((await readJson<Alert>(await t.call('GET', api(`/alerts/${open.id}`), { auth: t.basic }))).cleared_at).not.toBeNull();
    const quiet = await addShare(t, await addNas(t));
    await t.core.alerts.sight('share_unreachable', { type: 'nas_shares', id: String(quiet.id), name: quiet.name }, 'not raised while off');
    const { count } = await readJson<{ count: number }>(
      await t.call('GET', api(`/alerts?resource_type=nas_shares&resource_id=${quiet.id}`), { auth: t.basic }),
    );
    expect(count).toBe(0);
    await t.call('PUT', api('/alert_settings/share_unreachable'), { auth: t.basic, body: { enabled: true } });
    expect((await raiseAlert(t, quiet)).level).toBe(4);
  });

  it('takes a GET row back unchanged (source and description are read-only)', async () => {
    const row = (await settings()).alert_settings.find((setting) => setting.source === 'api_key_expiring')!;
    const res = await t.call('PUT', api('/alert_settings/api_key_expiring'), {
      auth: t.basic,
      body: { ...row, source: 'storage_degraded', description: 'mine' },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual(row);
  });

  it('is 404 for an unknown source (naming the sources), 422 for a level outside 1–5 or an unknown field', async () => {
    const unknown = await expectModelError(
      await t.call('PUT', api('/alert_settings/disk_full'), { auth: t.basic, body: { level: 2 } }),
      404,
      'source',
      'not_found',
    );
    expect(unknown.messages[0]).toContain('share_unreachable');
    await expectModelError(
      await t.call('PUT', api('/alert_settings/scan_failed'), { auth: t.basic, body: { level: 0 } }),
      422,
      'level',
      'greater_than_or_equal_to',
    );
    await expectModelError(
      await t.call('PUT', api('/alert_settings/scan_failed'), { auth: t.basic, body: { level: 6 } }),
      422,
      'level',
      'less_than_or_equal_to',
    );
    await expectModelError(await t.call('PUT', api('/alert_settings/scan_failed'), { auth: t.basic, body: { enabled: 'no' } }), 422, 'enabled', 'invalid');
    await expectModelError(await t.call('PUT', api('/alert_settings/scan_failed'), { auth: t.basic, body: { levels: 2 } }), 422, 'levels', 'unknown');
  });

  it('lets a user who is not an admin (an operator) read the settings but not change them (403), nor a key that user made', async () => {
    expect((await settings(basicOf(plain))).count).toBe(alertSources.length);
    const before = await settings();
    // The operator's role holds alert_settings / index only (docs/api.md#roles).
    await expectModelError(await t.call('PUT', api('/alert_settings/scan_failed'), { auth: basicOf(plain), body: { level: 1 } }), 403, 'scope', 'forbidden');
    const owner = principalOf(plain);
    const { key } = await t.core.apiKeys.create(owner, { name: unique('plain-key'), api_key_scopes: [{ controller: 'alert_settings', action: '*' }] });
    await expectModelError(await t.call('PUT', api('/alert_settings/scan_failed'), { auth: `Bearer ${key}`, body: { level: 1 } }), 403, 'scope', 'forbidden');
    await expectModelError(
      await t.call('PUT', api('/alert_settings/scan_failed'), { auth: await t.bearer('alert_settings/index'), body: { level: 1 } }),
      403,
      'scope',
      'forbidden',
    );
    expect(await settings()).toEqual(before);
    expect((await t.core.alerts.settings(systemPrincipal)).alert_settings).toEqual(before.alert_settings);
  });
});

describe('issue 40 item 12: alerts about API keys, and who dismisses an alert', () => {
  let t: TestApp;
  let owner: User;
  let other: User;
  let keyAlert: Alert;
  let shareAlert: Alert;
  const dayMs = 24 * 3600_000;
  const asUser = (user: User) => principalOf(user);
  const dismiss = (id: number, auth: string, dismissed = true) => t.call('PUT', api(`/alerts/${id}`), { auth, body: { dismissed } });

  beforeAll(async () => {
    t = await createTestApp();
    owner = await addUser(t, { username: unique('key-owner') });
    other = await addUser(t, { username: unique('other-user') });
    const expiresAt = new Date(Date.now() + 3 * dayMs).toISOString();
    await t.core.apiKeys.create(asUser(owner), { name: 'owners-nightly-key', api_key_scopes: [{ controller: 'nas', action: 'index' }], expires_at: expiresAt });
    await t.alertWatch.sweep();
    keyAlert = (await t.core.alerts.list(systemPrincipal, { source: ['api_key_expiring'] })).alerts[0]!;
    shareAlert = await raiseAlert(t, await addShare(t, await addNas(t)));
  });
  afterAll(() => t.close());

  it('issue 40 item 12: an alert about an API key names the key to admins and its owner only', async () => {
    expect(keyAlert).toMatchObject({ resource: { type: 'api_keys', name: 'owners-nightly-key' } });
    const listed = async (auth: string) => readJson<AlertCollection>(await t.call('GET', api('/alerts?source=api_key_expiring'), { auth }));
    expect((await listed(t.basic)).alerts.map((alert) => alert.id)).toEqual([keyAlert.id]);
    expect((await listed(basicOf(owner))).alerts).toEqual([keyAlert]);
    // Another user: neither listed, nor counted, nor shown by id, nor found by filtering on the key's id.
    const seenByOther = await listed(basicOf(other));
    expect(seenByOther).toEqual({ count: 0, alerts: [] });
    const probe = await t.call('GET', api(`/alerts?resource_type=api_keys&resource_id=${keyAlert.resource!.id}`), { auth: basicOf(other) });
    expect((await readJson<AlertCollection>(probe)).count).toBe(0);
    await expectModelError(await t.call('GET', api(`/alerts/${keyAlert.id}`), { auth: basicOf(other) }), 404, 'alert_id', 'not_found');
    const everything = await t.call('GET', api('/alerts?limit=100'), { auth: basicOf(other) });
    expect(await everything.text()).not.toContain('owners-nightly-key');
    // The owner's own key reads it too (a key acts for the user whose key tree it is in).
    const { key } = await t.core.apiKeys.create(asUser(owner), { name: unique('owners-reader'), api_key_scopes: [{ controller: 'alerts', action: '*' }] });
    expect((await t.call('GET', api(`/alerts/${keyAlert.id}`), { auth: `Bearer ${key}` })).status).toBe(200);
  });

  it('issue 40 item 12: dismissing an alert is for admins and the owner of its resource (403 otherwise)', async () => {
    await expectModelError(await dismiss(shareAlert.id, basicOf(other)), 403, 'admin', 'forbidden');
    await expectModelError(await dismiss(shareAlert.id, basicOf(owner)), 403, 'admin', 'forbidden');
    await expectModelError(await dismiss(keyAlert.id, basicOf(other)), 404, 'alert_id', 'not_found');
    expect((await t.core.alerts.show(systemPrincipal, String(shareAlert.id))).dismissed_at).toBeNull();
    expect((await t.core.alerts.show(systemPrincipal, String(keyAlert.id))).dismissed_at).toBeNull();

    const byOwner = await dismiss(keyAlert.id, basicOf(owner));
    expect(byOwner.status, await byOwner.clone().text()).toBe(200);
    expect((await readJson<Alert>(byOwner)).dismissed_at).not.toBeNull();
    const { key } = await t.core.apiKeys.create(asUser(owner), { name: unique('owners-dismisser'), api_key_scopes: [{ controller: 'alerts', action: '*' }] });
    expect((await dismiss(keyAlert.id, `Bearer ${key}`, false)).status).toBe(200);
    const byAdmin = await dismiss(shareAlert.id, t.basic);
    expect(byAdmin.status).toBe(200);
    expect((await dismiss(keyAlert.id, t.basic)).status).toBe(200);
  });
});
