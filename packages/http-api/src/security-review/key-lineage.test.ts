import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { expectModelError, readJson } from '../testing/fixtures.js';

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

  it('finding 20.6: an expiring key cannot hand its scopes to a sibling that outlives it', async () => {
    const expiry = new Date(start + 3600_000).toISOString();
    const scopesOfA = [{ controller: 'nas', action: 'index' }, { controller: 'api_keys', action: '*' }];
    const a = await createKey(bob, { api_key_scopes: scopesOfA, expires_at: expiry });
    const b = await createKey(bob, { api_key_scopes: [{ controller: 'nas', action: 'index' }] });
    expect(b.expires_at).toBeNull();
    // The review's step: B, which never expires, takes A's scopes through A.
    const handed = await t.call('PUT', api(`/api_keys/${b.id}`), { auth: a.auth, body: { api_key_scopes: scopesOfA } });
    const refusal = await expectModelError(handed, 422, 'expires_at', 'less_than_or_equal_to');
    expect(refusal.details['expires_at']).toEqual([{ error: 'less_than_or_equal_to', value: expiry }]);
    expect(refusal.messages.join(' ')).toContain(`send expires_at of ${expiry} or earlier`);
    // Renaming it is changing it too; a later expiry, or none, is refused as well.
    for (const body of [{ name: 'renamed' }, { api_key_scopes: scopesOfA, expires_at: new Date(start + 7200_000).toISOString() }, { expires_at: null }]) {
      expect((await t.call('PUT', api(`/api_keys/${b.id}`), { auth: a.auth, body })).status, JSON.stringify(body)).toBe(422);
    }
    const unchanged = await readJson<{ api_key_scopes: unknown[]; expires_at: string | null; name: string }>(await t.call('GET', api(`/api_keys/${b.id}`), { auth: bob }));
    expect(unchanged).toMatchObject({ name: 'k', api_key_scopes: [{ controller: 'nas', action: 'index' }], expires_at: null });
    // With an expiry no later than A's, in the same request, the change is within A's lifetime.
    const bounded = await t.call('PUT', api(`/api_keys/${b.id}`), { auth: a.auth, body: { api_key_scopes: scopesOfA, expires_at: expiry } });
    expect(bounded.status, await bounded.clone().text()).toBe(200);
    expect((await t.call('GET', api('/api_keys'), { auth: b.auth })).status).toBe(200);
    now = start + 3600_000 + 1000;
    t.core.auth.forgetCredentials();
    expect((await t.call('GET', api('/nas'), { auth: a.auth })).status).toBe(401);
    expect((await t.call('GET', api('/nas'), { auth: b.auth })).status).toBe(401);
  });

  it('finding 20.6: an expiring key may change a key that already ends no later than itself, through its own or its lineage\'s expiry', async () => {
    const expiry = new Date(start + 3600_000).toISOString();
    const a = await createKey(bob, { api_key_scopes: [{ controller: 'nas', action: 'index' }, { controller: 'api_keys', action: '*' }], expires_at: expiry });
    const sooner = await createKey(bob, { api_key_scopes: [{ controller: 'nas', action: 'index' }], expires_at: new Date(start + 60_000).toISOString() });
    expect((await t.call('PUT', api(`/api_keys/${sooner.id}`), { auth: a.auth, body: { name: 'renamed' } })).status).toBe(200);
    // A child of A has A's expiry; an admin cleared the child's own, but A above it still bounds it.
    const child = await createKey(a.auth, { api_key_scopes: [{ controller: 'nas', action: 'index' }] });
    expect((await t.call('PUT', api(`/api_keys/${child.id}`), { auth: t.basic, body: { expires_at: null } })).status).toBe(200);
    expect((await t.call('PUT', api(`/api_keys/${child.id}`), { auth: a.auth, body: { name: 'child' } })).status).toBe(200);
  });

  it('finding 20.6: updating expires_at to a past date is 422, as on create', async () => {
    const key = await createKey(bob, { api_key_scopes: [{ controller: 'nas', action: 'index' }] });
    for (const auth of [bob, t.basic]) {
      const res = await t.call('PUT', api(`/api_keys/${key.id}`), { auth, body: { expires_at: new Date(start - 1000).toISOString() } });
      const error = await expectModelError(res, 422, 'expires_at', 'greater_than_or_equal_to');
      expect(error.messages.join(' ')).toContain('expires_at must be later than now');
    }
    expect((await t.call('PUT', api(`/api_keys/${key.id}`), { auth: bob, body: { expires_at: new Date(start).toISOString() } })).status).toBe(422);
    expect((await t.call('PUT', api(`/api_keys/${key.id}`), { auth: bob, body: { expires_at: new Date(start + 1000).toISOString() } })).status).toBe(200);
  });

  it('finding 20.10: /metrics is admin-only, for users and their keys alike', async () => {
    const ownKey = await createKey(bob, { api_key_scopes: [{ controller: 'metrics', action: 'index' }] });
    for (const auth of [bob, ownKey.auth]) {
      const res = await t.call('GET', '/metrics', { auth });
      const error = await expectModelError(res, 403, 'admin', 'forbidden');
      expect(error.messages.join(' ')).toMatch(/only (an admin user|a key created by an admin user) may read metrics/);
    }
    const adminKey = await createKey(t.basic, { api_key_scopes: [{ controller: 'metrics', action: 'index' }] });
    for (const auth of [t.basic, adminKey.auth]) {
      const res = await t.call('GET', '/metrics', { auth });
      expect(res.status).toBe(200);
      expect(await res.text()).toMatch(/^# (HELP|TYPE) /m);
    }
    // An admin demoted loses them at once, as for users, settings and CORS rules.
    await t.call('POST', api('/users'), { auth: t.basic, body: { username: 'carol', password: 'carol-pass-123456', admin: true } });
    const carol = basicOf('carol', 'carol-pass-123456');
    expect((await t.call('GET', '/metrics', { auth: carol })).status).toBe(200);
    expect((await t.call('PUT', api('/users/carol'), { auth: t.basic, body: { admin: false } })).status).toBe(200);
    expect((await t.call('GET', '/metrics', { auth: carol })).status).toBe(403);
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
