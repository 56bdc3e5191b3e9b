import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemPrincipal } from '@dms/core';
import { createTestApp, type TestApp } from '../../src/testing/test-app.js';
import { expectModelError, readJson } from '../../src/testing/fixtures.js';

/**
 * Security review, findings 1 and 6 (docs/decisions/040-key-lineage.md), through REST: that the routes reach the key
 * lineage rules and answer them with the right status and model_error. Every branch of the rules
 * is proved on both storage adapters by the core: packages/core/src/services/api-key-lineage.test.ts.
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

  it("the routes answer the lineage rules: 403 on admin-only routes, 404 for another user's key, 401 once its creator is gone", async () => {
    const adminKey = await createKey(t.basic, { api_key_scopes: [{ controller: 'nas', action: 'index' }] });
    const key = await createKey(bob, { api_key_scopes: everything });
    // Bob is an operator: his `* / *` key ends its lineage with the operator's role, which holds none of these (docs/decisions/176-roles.md).
    await expectModelError(await t.call('PUT', api('/users/bob'), { auth: key.auth, body: { admin: true } }), 403, 'scope', 'forbidden');
    await expectModelError(await t.call('GET', api('/settings'), { auth: key.auth }), 403, 'scope', 'forbidden');
    await expectModelError(
      await t.call('POST', api('/cors_rules'), { auth: key.auth, body: { origins: ['https://evil.example'], methods: ['GET'] } }),
      403,
      'scope',
      'forbidden',
    );
    // An auditor reads settings but changes nothing: an admin area's change still needs the admin role.
    expect((await t.call('PUT', api('/users/bob'), { auth: t.basic, body: { role: 'auditor' } })).status).toBe(200);
    expect((await t.call('GET', api('/settings'), { auth: key.auth })).status).toBe(200);
    await expectModelError(await t.call('PUT', api('/settings'), { auth: key.auth, body: { jwt_ttl_seconds: 900 } }), 403, 'scope', 'forbidden');
    expect((await t.call('PUT', api('/users/bob'), { auth: t.basic, body: { role: 'operator' } })).status).toBe(200);
    await expectModelError(await t.call('GET', api(`/api_keys/${adminKey.id}`), { auth: bob }), 404, 'api_key_id', 'not_found');
    expect((await t.call('GET', api('/nas_shares'), { auth: key.auth })).status).toBe(200);
    expect((await t.call('DELETE', api('/users/bob'), { auth: t.basic })).status).toBe(204);
    const gone = await t.call('GET', api('/nas'), { auth: key.auth });
    await expectModelError(gone, 401, 'authorization');
    expect(gone.headers.get('www-authenticate')).toBeTruthy();
  });

  it('a key that would outlive its creator is a 422 model_error on expires_at, on create and on update', async () => {
    const expiry = new Date(start + 3600_000).toISOString();
    const scopesOfA = [
      { controller: 'nas', action: 'index' },
      { controller: 'api_keys', action: '*' },
    ];
    const a = await createKey(bob, { api_key_scopes: scopesOfA, expires_at: expiry });
    const b = await createKey(bob, { api_key_scopes: [{ controller: 'nas', action: 'index' }] });
    const later = await t.call('POST', api('/api_keys'), {
      auth: a.auth,
      body: { name: 'later', api_key_scopes: [{ controller: 'nas', action: 'index' }], expires_at: '9999-01-01T00:00:00Z' },
    });
    await expectModelError(later, 422, 'expires_at', 'less_than_or_equal_to');
    const handed = await t.call('PUT', api(`/api_keys/${b.id}`), { auth: a.auth, body: { api_key_scopes: scopesOfA } });
    const refusal = await expectModelError(handed, 422, 'expires_at', 'less_than_or_equal_to');
    expect(refusal.details['expires_at']).toEqual([{ error: 'less_than_or_equal_to', value: expiry }]);
    expect(refusal.messages.join(' ')).toContain(`send expires_at of ${expiry} or earlier`);
    const past = await t.call('PUT', api(`/api_keys/${b.id}`), { auth: bob, body: { expires_at: new Date(start - 1000).toISOString() } });
    expect((await expectModelError(past, 422, 'expires_at', 'greater_than_or_equal_to')).messages.join(' ')).toContain('expires_at must be later than now');
  });

  it('finding 20.10, issue 46: /metrics takes metrics / index, which admin, operator, auditor and viewer hold; a role without it is refused, for users and their keys alike', async () => {
    const ownKey = await createKey(bob, { api_key_scopes: [{ controller: 'metrics', action: 'index' }] });
    for (const auth of [bob, ownKey.auth]) expect((await t.call('GET', '/metrics', { auth })).status).toBe(200);
    await t.core.roles.create(systemPrincipal, { name: 'inventory', scopes: [{ controller: 'nas', action: 'index' }] });
    expect((await t.call('PUT', api('/users/bob'), { auth: t.basic, body: { role: 'inventory' } })).status).toBe(200);
    for (const auth of [bob, ownKey.auth]) {
      const error = await expectModelError(await t.call('GET', '/metrics', { auth }), 403, 'scope', 'forbidden');
      expect(error.messages.join(' ')).toContain('metrics / index');
    }
    const adminKey = await createKey(t.basic, { api_key_scopes: [{ controller: 'metrics', action: 'index' }] });
    for (const auth of [t.basic, adminKey.auth]) {
      const res = await t.call('GET', '/metrics', { auth });
      expect(res.status).toBe(200);
      expect(await res.text()).toMatch(/^# (HELP|TYPE) /m);
    }
    // A change of role applies at once, as for users, settings and CORS rules.
    await t.call('POST', api('/users'), { auth: t.basic, body: { username: 'carol', password: 'carol-pass-123456', admin: true } });
    const carol = basicOf('carol', 'carol-pass-123456');
    expect((await t.call('GET', '/metrics', { auth: carol })).status).toBe(200);
    expect((await t.call('PUT', api('/users/carol'), { auth: t.basic, body: { role: 'inventory' } })).status).toBe(200);
    expect((await t.call('GET', '/metrics', { auth: carol })).status).toBe(403);
  });
});
