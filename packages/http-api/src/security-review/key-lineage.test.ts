import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { readJson } from '../testing/fixtures.js';

/**
 * Security review, findings 1 and 6 (DESIGN §5.18): a key never carries more than the
 * principal that created it, expires no later than it, and dies with it.
 */
const basicOf = (username: string, password: string) => `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
const api = (path: string) => `/api/v2${path}`;
const everything = [{ controller: '*', action: '*' }];

describe('security review: key lineage', () => {
  const start = Date.parse('2032-01-01T00:00:00.000Z');
  let now = start;
  let t: TestApp;
  const bob = basicOf('bob', 'bob-pass-123456');
  beforeEach(async () => {
    now = start;
    t = await createTestApp({ clock: () => new Date(now) });
    const res = await t.call('POST', api('/users'), { auth: t.basic, body: { username: 'bob', password: 'bob-pass-123456' } });
    expect(res.status).toBe(201);
  });
  afterEach(() => t.close());

  const createKey = async (auth: string, body: Record<string, unknown>) => {
    const res = await t.call('POST', api('/api_keys'), { auth, body: { name: 'k', ...body } });
    expect(res.status, await res.clone().text()).toBe(201);
    const created = await readJson<{ id: number; key: string; expires_at: string | null }>(res);
    return { ...created, auth: `Bearer ${created.key}` };
  };

  it('finding 1: a non-admin user cannot become admin through a */* key it creates', async () => {
    const key = await createKey(bob, { api_key_scopes: everything });
    expect((await t.call('PUT', api('/users/bob'), { auth: key.auth, body: { admin: true } })).status).toBe(403);
    expect((await t.call('PUT', api('/users/admin'), { auth: key.auth, body: { password: 'taken-over-123' } })).status).toBe(403);
    expect((await t.call('POST', api('/users'), { auth: key.auth, body: { username: 'mallory', password: 'mallory-pass-1', admin: true } })).status).toBe(403);
    expect((await t.call('PUT', api('/settings'), { auth: key.auth, body: { jwt_enabled: true } })).status).toBe(403);
    expect((await t.call('POST', api('/cors_rules'), { auth: key.auth, body: { origins: ['https://evil.example'], methods: ['GET'] } })).status).toBe(403);
    // Resources stay reachable: the key holds what its creator holds.
    expect((await t.call('GET', api('/nas_shares'), { auth: key.auth })).status).toBe(200);
    expect((await t.call('GET', api('/users/bob'), { auth: t.basic })).status).toBe(200);
    expect((await readJson<{ admin: boolean }>(await t.call('GET', api('/users/bob'), { auth: t.basic }))).admin).toBe(false);
  });

  it('finding 1: non-admins cannot add CORS rules, read users or settings, nor see or revoke other users\' keys', async () => {
    const adminKey = await createKey(t.basic, { api_key_scopes: [{ controller: 'nas', action: 'index' }] });
    expect((await t.call('POST', api('/cors_rules'), { auth: bob, body: { origins: ['https://evil.example'], methods: ['GET'] } })).status).toBe(403);
    expect((await t.call('GET', api('/cors_rules'), { auth: bob })).status).toBe(403);
    expect((await t.call('GET', api('/users'), { auth: bob })).status).toBe(403);
    expect((await t.call('GET', api('/settings'), { auth: bob })).status).toBe(403);
    expect((await t.call('DELETE', api(`/api_keys/${adminKey.id}`), { auth: bob })).status).toBe(404);
    expect((await t.call('GET', api(`/api_keys/${adminKey.id}`), { auth: bob })).status).toBe(404);
    const own = await createKey(bob, { api_key_scopes: [{ controller: 'nas', action: 'index' }] });
    const listed = await readJson<{ count: number; api_keys: Array<{ id: number }> }>(await t.call('GET', api('/api_keys'), { auth: bob }));
    expect(listed.api_keys.map((k) => k.id)).toEqual([own.id]);
    expect((await t.call('GET', api(`/api_keys/${adminKey.id}`), { auth: t.basic })).status).toBe(200);
    expect((await t.call('GET', api('/nas'), { auth: adminKey.auth })).status).toBe(200);
  });

  it('finding 1: a key of an admin loses admin rights when its creator is demoted, and dies when its creator is deleted', async () => {
    await t.call('PUT', api('/users/bob'), { auth: t.basic, body: { admin: true } });
    const key = await createKey(bob, { api_key_scopes: everything });
    expect((await t.call('GET', api('/settings'), { auth: key.auth })).status).toBe(200);
    expect((await t.call('PUT', api('/users/bob'), { auth: t.basic, body: { admin: false } })).status).toBe(200);
    expect((await t.call('GET', api('/settings'), { auth: key.auth })).status).toBe(403);
    expect((await t.call('GET', api('/nas'), { auth: key.auth })).status).toBe(200);
    expect((await t.call('DELETE', api('/users/bob'), { auth: t.basic })).status).toBe(204);
    expect((await t.call('GET', api('/nas'), { auth: key.auth })).status).toBe(401);
  });

  it('finding 1: a key created by a key is bounded by its creator at use time', async () => {
    const parent = await createKey(t.basic, { api_key_scopes: [{ controller: 'nas', action: '*' }, { controller: 'api_keys', action: '*' }] });
    const child = await createKey(parent.auth, { api_key_scopes: [{ controller: 'nas', action: 'index' }] });
    expect((await t.call('GET', api('/nas'), { auth: child.auth })).status).toBe(200);
    // Narrowing the parent narrows the child too.
    const narrowed = await t.call('PUT', api(`/api_keys/${parent.id}`), { auth: t.basic, body: { api_key_scopes: [{ controller: 'api_keys', action: '*' }] } });
    expect(narrowed.status).toBe(200);
    expect((await t.call('GET', api('/nas'), { auth: child.auth })).status).toBe(403);
  });

  it('finding 6: a child key expires no later than its creator and dies when its creator is revoked', async () => {
    const parentExpiry = new Date(start + 3600_000).toISOString();
    const parent = await createKey(t.basic, { api_key_scopes: [{ controller: 'nas', action: 'index' }, { controller: 'api_keys', action: 'create' }], expires_at: parentExpiry });
    const inherited = await createKey(parent.auth, { api_key_scopes: [{ controller: 'nas', action: 'index' }] });
    expect(inherited.expires_at).toBe(parentExpiry);
    const later = await t.call('POST', api('/api_keys'), { auth: parent.auth, body: { name: 'later', api_key_scopes: [{ controller: 'nas', action: 'index' }], expires_at: '9999-01-01T00:00:00Z' } });
    expect(later.status).toBe(422);
    expect(((await later.json()) as { details: Record<string, unknown> }).details).toHaveProperty('expires_at');
    expect((await t.call('GET', api('/nas'), { auth: inherited.auth })).status).toBe(200);
    expect((await t.call('DELETE', api(`/api_keys/${parent.id}`), { auth: t.basic })).status).toBe(204);
    expect((await t.call('GET', api('/nas'), { auth: inherited.auth })).status).toBe(401);
    expect((await t.call('GET', api(`/api_keys/${inherited.id}`), { auth: t.basic })).status).toBe(404);
  });

  it('finding 6: a child key stops with its creator\'s expiry even if its own was set later by an admin', async () => {
    const parent = await createKey(t.basic, { api_key_scopes: [{ controller: 'nas', action: 'index' }, { controller: 'api_keys', action: 'create' }], expires_at: new Date(start + 60_000).toISOString() });
    const child = await createKey(parent.auth, { api_key_scopes: [{ controller: 'nas', action: 'index' }] });
    await t.call('PUT', api(`/api_keys/${child.id}`), { auth: t.basic, body: { expires_at: null } });
    now = start + 61_000;
    t.core.auth.forgetCredentials();
    expect((await t.call('GET', api('/nas'), { auth: child.auth })).status).toBe(401);
  });

  it('finding 6: an api_keys/* key cannot extend its own expiry', async () => {
    const expiry = new Date(start + 3600_000).toISOString();
    const key = await createKey(t.basic, { api_key_scopes: [{ controller: 'api_keys', action: '*' }], expires_at: expiry });
    for (const expires_at of ['9999-01-01T00:00:00Z', null]) {
      const res = await t.call('PUT', api(`/api_keys/${key.id}`), { auth: key.auth, body: { expires_at } });
      expect(res.status).toBe(422);
    }
    const shorter = await t.call('PUT', api(`/api_keys/${key.id}`), { auth: key.auth, body: { expires_at: new Date(start + 60_000).toISOString() } });
    expect(shorter.status).toBe(200);
  });
});
