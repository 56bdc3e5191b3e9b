import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemPrincipal, type AuditEvent, type Channel, type Delivery } from '@dms/core';
import { createTestApp, type TestApp } from '../../src/testing/test-app.js';
import { addChannel, expectModelError, readJson, unique } from '../../src/testing/fixtures.js';

/**
 * /notification_channels (issue 44, docs/api.md#notification-channels) over REST: the CRUD of the
 * list contract, settings checked per type, secrets written and never answered (a webhook's
 * answered once), audited as "changed", a digest refused to an Alertmanager, and the deliveries an alert
 * queues in its own transaction.
 */
const api = (path: string) => `/api/v2${path}`;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const post = (body: unknown) => t.call('POST', api('/notification_channels'), { auth: t.basic, body });

describe('notification channels', () => {
  it('a webhook: its whsec_ secret is answered by the create only, never by GET or the list', async () => {
    const name = unique('hook');
    const res = await post({ name, type: 'webhook', settings: { url: 'https://hooks.example.com/dms' } });
    expect(res.status, await res.clone().text()).toBe(201);
    const created = await readJson<Channel & { secret: string }>(res);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(created).toMatchObject({ name, type: 'webhook', enabled: true, min_level: 3, sources: null, digest: 'immediately', failing_since: null });
    const shown = await (await t.call('GET', api(`/notification_channels/${name}`), { auth: t.basic })).text();
    expect(shown).not.toContain(created.secret);
    expect(JSON.parse(shown)).not.toHaveProperty('secret');
    const listed = await (await t.call('GET', api(`/notification_channels?name=${name}`), { auth: t.basic })).text();
    expect(JSON.parse(listed)).toMatchObject({ count: 1, notification_channels: [{ id: created.id }] });
    expect(listed).not.toContain(created.secret);
  });

  it('an e-mail password and an ntfy token are written, kept across an update, never answered, audited as "changed"', async () => {
    const name = unique('mail');
    const res = await post({
      name,
      type: 'email',
      settings: { host: 'smtp.example.com', username: 'dms', password: 'smtp-secret-1', from: 'dms@example.com', to: ['ops@example.com'] },
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const created = await readJson<Channel>(res);
    expect(created.settings).toEqual({
      host: 'smtp.example.com',
      port: 587,
      security: 'starttls',
      username: 'dms',
      from: 'dms@example.com',
      to: ['ops@example.com'],
    });
    const updated = await t.call('PUT', api(`/notification_channels/${created.id}`), { auth: t.basic, body: { settings: { port: 465, security: 'tls' } } });
    expect(updated.status, await updated.clone().text()).toBe(200);
    expect((await readJson<Channel>(updated)).settings).toMatchObject({ port: 465, security: 'tls', host: 'smtp.example.com' });
    const stored = await t.storage.notificationChannels.get(created.id);
    expect(stored?.secrets).toEqual({ password: 'smtp-secret-1' });
    await t.call('PUT', api(`/notification_channels/${created.id}`), { auth: t.basic, body: { settings: { password: 'smtp-secret-2' } } });
    expect((await t.storage.notificationChannels.get(created.id))?.secrets).toEqual({ password: 'smtp-secret-2' });
    const { audit_events } = (await t.core.auditEvents.list(systemPrincipal, {
      resource_type: ['notification_channels'],
      resource_id: [String(created.id)],
    })) as {
      audit_events: AuditEvent[];
    };
    const text = JSON.stringify(audit_events);
    expect(text).not.toContain('smtp-secret');
    expect(audit_events.some((event) => event.action === 'create' && (event.changes as Record<string, unknown>)['password'] === 'changed')).toBe(true);
    expect(audit_events.some((event) => event.action === 'update' && (event.changes as Record<string, unknown>)['settings.password'] === 'changed')).toBe(true);
  });

  it("refuses settings of another type, a URL that is not http(s), an unknown digest or one on an Alertmanager, a trap queue's name, and a change of type", async () => {
    const wrongField = await expectModelError(
      await post({ name: unique('n'), type: 'ntfy', settings: { url: 'https://ntfy.sh/x', host: 'a' } }),
      422,
      'settings.host',
      'unknown',
    );
    expect(wrongField.messages.join(' ')).toMatch(/host/);
    const scheme = await expectModelError(
      await post({ name: unique('n'), type: 'slack', settings: { url: 'file:///etc/passwd' } }),
      422,
      'settings.url',
      'invalid',
    );
    expect(scheme.messages.join(' ')).toMatch(/http:\/\/ or https:\/\//);
    await expectModelError(
      await post({ name: unique('n'), type: 'discord', settings: { url: 'https://user:pw@example.com/x' } }),
      422,
      'settings.url',
      'invalid',
    );
    const weekly = await expectModelError(
      await post({ name: unique('n'), type: 'slack', digest: 'weekly', settings: { url: 'https://example.com/x' } }),
      422,
      'digest',
    );
    expect(weekly.messages.join(' ')).toMatch(/immediately, hourly, daily/);
    // An Alertmanager groups alerts itself: it is told each as it fires (docs/decisions/173-notification-digests.md).
    const grouped = await expectModelError(
      await post({ name: unique('n'), type: 'alertmanager', digest: 'hourly', settings: { url: 'http://127.0.0.1:9093' } }),
      422,
      'digest',
    );
    expect(grouped.messages.join(' ')).toMatch(/alertmanager channel cannot be a digest/);
    await expectModelError(
      await post({ name: unique('n'), type: 'slack', digest: 'daily', digest_hour: 24, settings: { url: 'https://example.com/x' } }),
      422,
      'digest_hour',
    );
    await expectModelError(await post({ name: 'snmp_trap/1', type: 'slack', settings: { url: 'https://example.com/x' } }), 422, 'name');
    await expectModelError(await post({ name: unique('n'), type: 'slack', min_level: 6, settings: { url: 'https://example.com/x' } }), 422, 'min_level');
    await expectModelError(
      await post({ name: unique('n'), type: 'slack', sources: ['no_such_source'], settings: { url: 'https://example.com/x' } }),
      422,
      'sources.0',
    );
    const channel = await addChannel(t);
    await expectModelError(await t.call('PUT', api(`/notification_channels/${channel.id}`), { auth: t.basic, body: { type: 'teams' } }), 422, 'type', 'frozen');
    await expectModelError(await post({ name: channel.name, type: 'slack', settings: { url: 'https://example.com/x' } }), 409, 'name', 'taken');
  });

  it('an alert raised and cleared queues one delivery each on the channels whose level and sources take it', async () => {
    const all = await addChannel(t, { min_level: 1 });
    const high = await addChannel(t, { min_level: 5 });
    const other = await addChannel(t, { min_level: 1, sources: ['scan_failed'] });
    const resource = { type: 'nas_shares', id: '9001', name: unique('share') };
    await t.core.alerts.sight('share_unreachable', resource, 'unreachable');
    await t.core.alerts.sight('share_unreachable', resource, 'still unreachable');
    await t.core.alerts.clear('share_unreachable', resource);
    const deliveries = async (channel: Channel) =>
      readJson<{ count: number; deliveries: Delivery[] }>(
        await t.call('GET', api(`/notification_channels/${channel.id}/deliveries?sort_by=id`), { auth: t.basic }),
      );
    const queued = await deliveries(all);
    expect(queued.deliveries.map((delivery) => [delivery.event_type, delivery.outcome, delivery.attempts, delivery.at])).toEqual([
      ['alert.raised', 'pending', 0, null],
      ['alert.cleared', 'pending', 0, null],
    ]);
    expect(queued.deliveries[0]!.event_id).toMatch(/^evt_/);
    expect(queued.deliveries[0]!.next_attempt_at).not.toBeNull();
    expect((await deliveries(high)).count).toBe(0);
    expect((await deliveries(other)).count).toBe(0);
    // Disabled: what it had queued is dropped, not sent later.
    await t.call('PUT', api(`/notification_channels/${all.id}`), { auth: t.basic, body: { enabled: false } });
    expect((await deliveries(all)).deliveries.map((delivery) => [delivery.outcome, delivery.next_attempt_at])).toEqual([
      ['dropped', null],
      ['dropped', null],
    ]);
  });

  it('test answers a refused connection as a failed outcome with its reason', async () => {
    const channel = await addChannel(t);
    const res = await t.call('POST', api(`/notification_channels/${channel.id}/test`), { auth: t.basic });
    expect(res.status).toBe(200);
    const result = await readJson<{ outcome: string; status_code: number | null; error: string }>(res);
    expect(result).toMatchObject({ outcome: 'failed', status_code: null });
    expect(result.error).toMatch(/ECONNREFUSED/);
  });
});
