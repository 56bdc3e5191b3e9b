import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scopeCatalogue } from '@dms/core';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { expectModelError, readJson } from '../testing/fixtures.js';

/** Security round 2, findings 7 and 8 (its key-cap half): scopes a check can match, and keys per user. */
const basicOf = (username: string, password: string) => `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
const api = (path: string) => `/api/v2${path}`;
const bob = basicOf('bob', 'bob-pass-123456');

describe('security round 2: API key scopes and the number of keys per user', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
    expect((await t.call('POST', api('/users'), { auth: t.basic, body: { username: 'bob', password: 'bob-pass-123456' } })).status).toBe(201);
  });
  afterEach(() => t.close());

  const createKey = (auth: string, scopes: Array<{ controller: string; action: string }>, name = 'k') =>
    t.call('POST', api('/api_keys'), { auth, body: { name, api_key_scopes: scopes } });

  it('finding 20.7: a scope naming no controller or action of the scope catalogue is 422, naming what is allowed and the closest', async () => {
    const controllers = scopeCatalogue.map((entry) => entry.controller).join(', ');
    const wrongController = await createKey(t.basic, [{ controller: 'nas_share', action: 'index' }]);
    const byController = await expectModelError(wrongController, 422, 'api_key_scopes.0.controller', 'invalid');
    expect(byController.messages).toEqual([`api_key_scopes[0].controller must be * or one of ${controllers}; did you mean 'nas_shares'?`]);

    const wrongAction = await createKey(t.basic, [{ controller: 'nas', action: 'index' }, { controller: 'nas_shares', action: 'indx' }]);
    const byAction = await expectModelError(wrongAction, 422, 'api_key_scopes.1.action', 'invalid');
    expect(byAction.messages).toEqual(["api_key_scopes[1].action must be * or an action of nas_shares: index, show, create, update, destroy, test, scan, get_password; did you mean 'index'?"]);

    // get_password is an action of nas_shares only; a `*` controller takes any catalogue action.
    await expectModelError(await createKey(t.basic, [{ controller: 'traps', action: 'get_password' }]), 422, 'api_key_scopes.0.action', 'invalid');
    const anyController = await expectModelError(await createKey(t.basic, [{ controller: '*', action: 'frobnicate' }]), 422, 'api_key_scopes.0.action', 'invalid');
    expect(anyController.messages[0]).toMatch(/^api_key_scopes\[0\]\.action must be \* or an action of some controller: index, show, create, update, destroy, test, scan, get_password/);

    // The same on update, and through a key; nothing was stored.
    const listed = await readJson<{ count: number }>(await t.call('GET', api('/api_keys'), { auth: t.basic }));
    expect(listed.count).toBe(0);
    const made = await createKey(t.basic, [{ controller: 'nas', action: 'index' }, { controller: 'api_keys', action: '*' }]);
    expect(made.status).toBe(201);
    const { id, key } = await readJson<{ id: number; key: string }>(made);
    const updated = await t.call('PUT', api(`/api_keys/${id}`), { auth: `Bearer ${key}`, body: { api_key_scopes: [{ controller: 'nas', action: 'shwo' }] } });
    expect((await expectModelError(updated, 422, 'api_key_scopes.0.action', 'invalid')).messages[0]).toMatch(/^api_key_scopes\[0\]\.action must be \* or an action of nas: .*; did you mean 'show'\?$/);
  });

  it('finding 20.7: * wildcards and every catalogue pair stay valid', async () => {
    const valid = [
      { controller: '*', action: '*' },
      { controller: '*', action: 'index' },
      { controller: '*', action: 'get_password' },
      { controller: 'nas_shares', action: '*' },
      ...scopeCatalogue.flatMap((entry) => entry.actions.map((action) => ({ controller: entry.controller, action }))),
    ];
    const res = await createKey(t.basic, valid);
    expect(res.status, await res.clone().text()).toBe(201);
    expect((await readJson<{ api_key_scopes: unknown[] }>(res)).api_key_scopes).toEqual(valid);
  });

  it('finding 20.8: a user holds at most api_keys_max_per_user keys, its keys\' keys included: beyond, 409 naming the setting', async () => {
    expect((await readJson<{ api_keys_max_per_user: number }>(await t.call('GET', api('/settings'), { auth: t.basic }))).api_keys_max_per_user).toBe(100);
    await expectModelError(await t.call('PUT', api('/settings'), { auth: t.basic, body: { api_keys_max_per_user: 0 } }), 422, 'api_keys_max_per_user');
    expect((await t.call('PUT', api('/settings'), { auth: t.basic, body: { api_keys_max_per_user: 3 } })).status).toBe(200);

    const scopes = [{ controller: 'nas', action: 'index' }, { controller: 'api_keys', action: 'create' }];
    const first = await createKey(bob, scopes);
    expect(first.status).toBe(201);
    const parent = `Bearer ${(await readJson<{ key: string }>(first)).key}`;
    expect((await createKey(parent, [{ controller: 'nas', action: 'index' }])).status).toBe(201);
    expect((await createKey(bob, scopes)).status).toBe(201);
    for (const auth of [bob, parent]) {
      const refused = await expectModelError(await createKey(auth, [{ controller: 'nas', action: 'index' }]), 409, 'api_keys_max_per_user', 'less_than_or_equal_to');
      expect(refused.details['api_keys_max_per_user']).toEqual([{ error: 'less_than_or_equal_to', count: 3 }]);
      expect(refused.messages.join(' ')).toContain('api_keys_max_per_user');
    }
    // Another user's keys, and keys made by the system (CLI, console), count on their own.
    expect((await createKey(t.basic, scopes)).status).toBe(201);
    for (let i = 0; i < 4; i++) await t.bearer('nas/index');
    const listed = await readJson<{ api_keys: Array<{ id: number }> }>(await t.call('GET', api('/api_keys'), { auth: bob }));
    expect(listed.api_keys).toHaveLength(3);
    // Revoking one makes room again.
    expect((await t.call('DELETE', api(`/api_keys/${listed.api_keys.at(-1)!.id}`), { auth: bob })).status).toBe(204);
    expect((await createKey(bob, scopes)).status).toBe(201);
  });

  it('finding 20.8: concurrent creates never pass the cap', async () => {
    expect((await t.call('PUT', api('/settings'), { auth: t.basic, body: { api_keys_max_per_user: 2 } })).status).toBe(200);
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => createKey(bob, [{ controller: 'nas', action: 'index' }], `k${i}`)));
    expect(answers.map((res) => res.status).sort()).toEqual([201, 201, 409, 409, 409, 409]);
    expect((await readJson<{ count: number }>(await t.call('GET', api('/api_keys'), { auth: bob }))).count).toBe(2);
  });
});
