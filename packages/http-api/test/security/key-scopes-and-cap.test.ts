import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../src/testing/test-app.js';
import { expectModelError, readJson } from '../../src/testing/fixtures.js';

/**
 * Security round 2, findings 7 and 8 (its key-cap half), through REST: the statuses and
 * model_errors of the API key rules. Each branch of them is proved on both storage adapters by
 * the core: packages/core/src/services/api-key-scopes-and-cap.test.ts.
 */
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

  it("POST and PUT /api_keys answer a scope outside the catalogue with a 422 model_error on the scope's field", async () => {
    const created = await expectModelError(
      await createKey(t.basic, [{ controller: 'nas_share', action: 'index' }]),
      422,
      'api_key_scopes.0.controller',
      'invalid',
    );
    expect(created.messages[0]).toContain("did you mean 'nas_shares'?");
    const made = await createKey(t.basic, [
      { controller: 'nas', action: 'index' },
      { controller: 'api_keys', action: '*' },
    ]);
    expect(made.status).toBe(201);
    const { id, key } = await readJson<{ id: number; key: string }>(made);
    const updated = await t.call('PUT', api(`/api_keys/${id}`), { auth: `Bearer ${key}`, body: { api_key_scopes: [{ controller: 'nas', action: 'shwo' }] } });
    await expectModelError(updated, 422, 'api_key_scopes.0.action', 'invalid');
  });

  it('POST /api_keys beyond api_keys_max_per_user is a 409 model_error naming the setting', async () => {
    await expectModelError(await t.call('PUT', api('/settings'), { auth: t.basic, body: { api_keys_max_per_user: 0 } }), 422, 'api_keys_max_per_user');
    expect((await t.call('PUT', api('/settings'), { auth: t.basic, body: { api_keys_max_per_user: 1 } })).status).toBe(200);
    expect((await createKey(bob, [{ controller: 'nas', action: 'index' }])).status).toBe(201);
    const refused = await expectModelError(
      await createKey(bob, [{ controller: 'nas', action: 'index' }]),
      409,
      'api_keys_max_per_user',
      'less_than_or_equal_to',
    );
    expect(refused.details['api_keys_max_per_user']).toEqual([{ error: 'less_than_or_equal_to', count: 1 }]);
  });
});
