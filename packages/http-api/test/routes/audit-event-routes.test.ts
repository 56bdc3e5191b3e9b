import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemPrincipal, type AuditEvent } from '@dms/core';
import { adminPassword, adminUsername, createTestApp, type TestApp } from '../../src/testing/test-app.js';
import { addNas, addUser, expectModelError, readJson, unique, type Nas, type NasShare, type User } from '../../src/testing/fixtures.js';

/**
 * GET /audit_events (issue 22, docs/decisions/084-audit-trail.md) on changes made over REST: who made each one, from
 * which address, under which request id, what changed; a secret as "changed", never a value.
 */

interface AuditEventCollection {
  count: number;
  audit_events: AuditEvent[];
}

const api = (path: string) => `/api/v2${path}`;
const basicOf = (username: string, password: string) => `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;

describe('GET /audit_events', () => {
  let t: TestApp;
  let admin: User;

  async function events(query: string): Promise<AuditEventCollection> {
    const res = await t.call('GET', api(`/audit_events${query}`), { auth: t.basic });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    return JSON.parse(text) as AuditEventCollection;
  }

  /** Every stored event, as the API answers them, page after page. */
  async function everyEventText(): Promise<string> {
    const pages: string[] = [];
    for (let page = 1; ; page += 1) {
      const res = await t.call('GET', api(`/audit_events?per_page=100&page=${page}`), { auth: t.basic });
      const text = await res.text();
      pages.push(text);
      const body = JSON.parse(text) as AuditEventCollection;
      if (page * 100 >= body.count) return pages.join('\n');
    }
  }

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.core.users.show(systemPrincipal, adminUsername);
  });
  afterAll(() => t.close());

  it('is 403 for a user whose role lacks audit_events / index (operator, viewer), 200 for an auditor, and 403 for a key without it', async () => {
    const password = 'plain-password-1';
    for (const role of ['operator', 'viewer']) {
      const user = await addUser(t, { password, role });
      await expectModelError(await t.call('GET', api('/audit_events'), { auth: basicOf(user.username, password) }), 403, 'scope', 'forbidden');
    }
    const auditor = await addUser(t, { password, role: 'auditor' });
    expect((await t.call('GET', api('/audit_events'), { auth: basicOf(auditor.username, password) })).status).toBe(200);
    await expectModelError(await t.call('GET', api('/audit_events'), { auth: await t.bearer('jobs/index', 'users/index') }), 403, 'scope', 'forbidden');
  });

  it('issue 48: says in Dms-Count whether count is exact, and keeps that out of the body', async () => {
    const res = await t.call('GET', api('/audit_events?limit=1'), { auth: t.basic });
    expect(res.status).toBe(200);
    expect(res.headers.get('dms-count')).toBe('exact');
    expect(Object.keys(await readJson<AuditEventCollection>(res)).sort()).toEqual(['audit_events', 'count']);
  });

  it('records the create, update and delete of a NAS over REST: actor, via, client address, request id, changes', async () => {
    const name = unique('audited-nas');
    const created = await t.call('POST', api('/nas'), { auth: t.basic, body: { name, host: 'nas.example', type: 'nfs_v4', comment: 'first floor' } });
    expect(created.status).toBe(201);
    const nas = await readJson<Nas>(created);
    const updated = await t.call('PUT', api(`/nas/${nas.id}`), { auth: t.basic, body: { comment: 'second floor' } });
    expect(updated.status).toBe(200);
    // A request id the client chose is the answer's, and so the event's.
    const deleted = await t.call('DELETE', api(`/nas/${nas.id}`), { auth: t.basic, headers: { 'x-request-id': 'ticket-4711.delete' } });
    expect(deleted.status).toBe(204);
    expect(deleted.headers.get('x-request-id')).toBe('ticket-4711.delete');

    const trail = await events(`?resource_type=nas&resource_id=${nas.id}&sort_by=id`);
    expect(trail.count).toBe(3);
    const common = {
      actor: { kind: 'user', id: admin.id, name: adminUsername },
      via: 'rest',
      // What the rate limiter sees of a request that came without a socket (app.request).
      client_address: 'local',
      resource: { type: 'nas', id: String(nas.id), name },
      outcome: 'success',
      count: 1,
    };
    const [create, update, remove] = trail.audit_events;
    expect(create).toMatchObject({ ...common, action: 'create', request_id: created.headers.get('x-request-id') });
    expect(create!.changes).toMatchObject({
      name: { from: null, to: name },
      host: { from: null, to: 'nas.example' },
      comment: { from: null, to: 'first floor' },
    });
    expect(update).toMatchObject({ ...common, action: 'update', request_id: updated.headers.get('x-request-id') });
    expect(update!.changes).toEqual({ comment: { from: 'first floor', to: 'second floor' } });
    expect(remove).toMatchObject({ ...common, action: 'delete', request_id: 'ticket-4711.delete', changes: null });
    expect(new Set(trail.audit_events.map((event) => event.request_id)).size).toBe(3);
    expect(Date.parse(create!.at)).toBeLessThanOrEqual(Date.parse(remove!.at));

    // Newest first unless sort_by says otherwise, and the filters of the list contract.
    expect((await events(`?resource_type=nas&resource_id=${nas.id}`)).audit_events.map((event) => event.action)).toEqual(['delete', 'update', 'create']);
    expect((await events(`?resource_id=${nas.id}&resource_type=nas&action=update&via=rest&actor=${adminUsername}`)).count).toBe(1);
    expect((await events(`?resource_id=${nas.id}&resource_type=nas&via=cli`)).count).toBe(0);
  });

  it('records a share password change as "changed", and no event holds the password text', async () => {
    const nas = await addNas(t);
    const secrets = ['pw-audit-created-8f3a', 'pw-audit-updated-c71e', 'pw-audit-user-5d20'];
    const created = await t.call('POST', api(`/nas/${nas.id}/nas_shares`), {
      auth: t.basic,
      body: { name: unique('audited-share'), path: 'share', username: 'backup', password: secrets[0] },
    });
    expect(created.status).toBe(201);
    const share = await readJson<NasShare>(created);
    expect((await t.call('PUT', api(`/nas_shares/${share.id}`), { auth: t.basic, body: { password: secrets[1], username: 'backup2' } })).status).toBe(200);
    const user = await addUser(t);
    expect((await t.call('PUT', api(`/users/${user.id}`), { auth: t.basic, body: { password: secrets[2] } })).status).toBe(200);

    const trail = await events(`?resource_type=nas_shares&resource_id=${share.id}&sort_by=id`);
    expect(trail.audit_events.map((event) => event.action)).toEqual(['create', 'update']);
    expect(trail.audit_events[0]!.changes?.['password']).toBe('changed');
    expect(trail.audit_events[1]!.changes).toEqual({ password: 'changed', username: { from: 'backup', to: 'backup2' } });
    const userTrail = await events(`?resource_type=users&resource_id=${user.id}&action=update`);
    expect(userTrail.audit_events[0]!.changes).toEqual({ password: 'changed' });

    const everything = await everyEventText();
    for (const secret of [...secrets, adminPassword]) expect(everything).not.toContain(secret);
  });

  it('records sign-ins over REST with their request id, and failed ones per client and hour', async () => {
    await t.core.settings.update(systemPrincipal, { jwt_enabled: true });
    const login = await t.call('POST', api('/auth/login'), { body: { username: adminUsername, password: adminPassword } });
    expect(login.status).toBe(200);
    const signedIn = (await events('?action=login&sort_by=id:desc')).audit_events[0];
    expect(signedIn).toMatchObject({
      actor: { kind: 'user', id: admin.id, name: adminUsername },
      via: 'rest',
      client_address: 'local',
      request_id: login.headers.get('x-request-id'),
      outcome: 'success',
    });

    const guessed = unique('nobody');
    for (let i = 0; i < 2; i += 1) {
      const refused = await t.call('POST', api('/auth/login'), { body: { username: guessed, password: 'guess-password-1' } });
      expect(refused.status).toBe(401);
    }
    const failed = await events(`?action=login_failed&actor=${guessed}`);
    // Both guesses fell in one hour, unless the hour turned between them.
    expect(failed.audit_events.reduce((sum, event) => sum + event.count, 0)).toBe(2);
    for (const event of failed.audit_events) {
      expect(event).toMatchObject({
        actor: { kind: 'user', id: null, name: guessed },
        changes: { usernames: { from: null, to: [guessed] } },
        via: 'rest',
        client_address: 'local',
        request_id: null,
        outcome: 'failure',
      });
    }
    expect(await everyEventText()).not.toContain('guess-password-1');
  });
});

describe('GET /audit_events over a real socket behind a trusted proxy', () => {
  let t: TestApp;
  let server: ServerType;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp({ trustedProxies: ['127.0.0.1'] });
    server = await new Promise<ServerType>((resolve) => {
      const started = serve({ fetch: t.app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(started));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await t.close();
  });

  it('records the client address as the rate limiter resolves it: the peer, or what a trusted proxy forwarded', async () => {
    const headers = { authorization: t.basic, 'content-type': 'application/json' };
    const direct = await fetch(`${base}/api/v2/pools`, { method: 'POST', headers, body: JSON.stringify({ name: unique('direct') }) });
    expect(direct.status).toBe(201);
    const forwarded = await fetch(`${base}/api/v2/pools`, {
      method: 'POST',
      headers: { ...headers, 'x-forwarded-for': '203.0.113.9' },
      body: JSON.stringify({ name: unique('forwarded') }),
    });
    expect(forwarded.status).toBe(201);
    const res = await fetch(`${base}/api/v2/audit_events?resource_type=pools&action=create&sort_by=id`, { headers });
    const { audit_events: trail } = (await res.json()) as AuditEventCollection;
    expect(trail.map((event) => [event.client_address, event.request_id])).toEqual([
      [expect.stringMatching(/^(::ffff:)?127\.0\.0\.1$/), direct.headers.get('x-request-id')],
      ['203.0.113.9', forwarded.headers.get('x-request-id')],
    ]);
  });
});
