import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../src/testing/test-app.js';
import { addNas, expectModelError, readJson } from '../../src/testing/fixtures.js';

const api = (path: string) => `/api/v2${path}`;

/**
 * Findings 14, 15 and 20.16 through REST: that the routes answer the name and JWT-period rules
 * with the right status and model_error. Each branch of the rules is proved on both storage
 * adapters by the core: packages/core/src/services/names-and-jwt-periods.test.ts.
 */
describe('security review: names and JWT periods', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.close());

  it("POST and PUT answer a name that reads as an id with a 422 model_error on the name's field", async () => {
    const nas = await addNas(t);
    const attempts: Array<[string, string, Record<string, unknown>, string]> = [
      ['POST', '/nas', { host: 'nas.example', type: 'smb_v3' }, 'name'],
      ['POST', '/pools', {}, 'name'],
      ['POST', `/nas/${nas.id}/nas_shares`, { path: '/srv/x' }, 'name'],
      ['PUT', `/nas/${nas.id}`, {}, 'name'],
      ['POST', '/users', { password: 'long-enough-pass' }, 'username'],
    ];
    for (const [method, path, body, field] of attempts) {
      await expectModelError(await t.call(method, api(path), { auth: t.basic, body: { ...body, [field]: '5' } }), 422, field);
    }
  });

  it('a token issued before JWT mode was switched off and on again is a 401 model_error', async () => {
    const setJwt = (jwt_enabled: boolean) => t.call('PUT', api('/settings'), { auth: t.basic, body: { jwt_enabled } });
    expect((await setJwt(true)).status).toBe(200);
    const res = await t.call('POST', api('/auth/login'), { body: { username: 'admin', password: 'admin-password-1' } });
    expect(res.status).toBe(200);
    const old = `Bearer ${(await readJson<{ token: string }>(res)).token}`;
    expect((await t.call('GET', api('/nas'), { auth: old })).status).toBe(200);
    expect((await setJwt(false)).status).toBe(200);
    expect((await setJwt(true)).status).toBe(200);
    await expectModelError(await t.call('GET', api('/nas'), { auth: old }), 401, 'authorization');
  });
});
