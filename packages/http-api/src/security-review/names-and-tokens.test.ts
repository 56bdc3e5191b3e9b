import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { addNas, expectModelError, readJson } from '../testing/fixtures.js';

const api = (path: string) => `/api/v2${path}`;

describe('security review: names and JWT periods', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.close());

  it('finding 14: all-digit names and names with bidi controls are refused for shares, NAS, pools and users, saying why', async () => {
    const nas = await addNas(t);
    const attempts: Array<[string, string, Record<string, unknown>, string]> = [
      ['POST', '/nas', { host: 'nas.example', type: 'smb_v3' }, 'name'],
      ['POST', '/pools', {}, 'name'],
      ['POST', `/nas/${nas.id}/nas_shares`, { path: '/srv/x' }, 'name'],
      ['POST', '/users', { password: 'long-enough-pass' }, 'username'],
    ];
    for (const [method, path, body, field] of attempts) {
      for (const [name, why] of [['5', 'all digits'], ['invoice\u202Efdp.exe', 'bidirectional']] as const) {
        const res = await t.call(method, api(path), { auth: t.basic, body: { ...body, [field]: name } });
        expect(res.status, `${path} ${JSON.stringify(name)}`).toBe(422);
        const error = await readJson<{ details: Record<string, unknown>; messages: string[] }>(res);
        expect(error.details).toHaveProperty(field);
        // User names take letters, digits and . _ @ - only, which the message says instead.
        expect(error.messages.join(' ')).toContain(field === 'username' && why === 'bidirectional' ? 'may contain letters' : why);
      }
    }
    const renamed = await t.call('PUT', api(`/nas/${nas.id}`), { auth: t.basic, body: { name: '42' } });
    expect(renamed.status).toBe(422);
    expect((await t.call('POST', api('/nas'), { auth: t.basic, body: { name: 'rack-5', host: 'nas.example', type: 'smb_v3' } })).status).toBe(201);
  });

  it('finding 20.16: names that read as ids (invisible format characters, full-width or other digits) are refused as all-digit names are', async () => {
    const nas = await addNas(t);
    const attempts: Array<[string, string, Record<string, unknown>, string]> = [
      ['POST', '/nas', { host: 'nas.example', type: 'smb_v3' }, 'name'],
      ['POST', '/pools', {}, 'name'],
      ['POST', `/nas/${nas.id}/nas_shares`, { path: '/srv/x' }, 'name'],
      ['PUT', `/nas/${nas.id}`, {}, 'name'],
      ['POST', '/users', { password: 'long-enough-pass' }, 'username'],
    ];
    const idLike = ['17\u200b', '\ufeff17', '\uff11\uff17', '1\u200d7', '\u200e42', '\u0661\u0667', '\u{1d7cf}\u{1d7d5}'];
    for (const [method, path, body, field] of attempts) {
      for (const name of idLike) {
        const res = await t.call(method, api(path), { auth: t.basic, body: { ...body, [field]: name } });
        const error = await expectModelError(res, 422, field);
        // User names take ASCII letters, digits and . _ @ - only, which refuses these already.
        if (field === 'name') expect(error.messages, `${path} ${JSON.stringify(name)}`).toEqual(['name must not be all digits (an all-digit name would read as an id in paths)']);
      }
    }
    // Digits among letters stay fine, with or without a format character.
    for (const name of ['rack\u200b17', '\uff52ack-17', '17-a']) {
      const res = await t.call('POST', api('/pools'), { auth: t.basic, body: { name } });
      expect(res.status, JSON.stringify(name)).toBe(201);
    }
  });

  it('finding 15: disabling and re-enabling JWT mode ends tokens issued before', async () => {
    const setJwt = (jwt_enabled: boolean) => t.call('PUT', api('/settings'), { auth: t.basic, body: { jwt_enabled } });
    const login = async () => {
      const res = await t.call('POST', api('/auth/login'), { body: { username: 'admin', password: 'admin-password-1' } });
      expect(res.status).toBe(200);
      return `Bearer ${(await readJson<{ token: string }>(res)).token}`;
    };
    expect((await setJwt(true)).status).toBe(200);
    const old = await login();
    expect((await t.call('GET', api('/nas'), { auth: old })).status).toBe(200);
    expect((await setJwt(false)).status).toBe(200);
    expect((await t.call('GET', api('/nas'), { auth: old })).status).toBe(401);
    expect((await setJwt(true)).status).toBe(200);
    expect((await t.call('GET', api('/nas'), { auth: old })).status).toBe(401);
    const fresh = await login();
    expect((await t.call('GET', api('/nas'), { auth: fresh })).status).toBe(200);
    // Saving settings while JWT mode stays on keeps the current tokens.
    expect((await t.call('PUT', api('/settings'), { auth: t.basic, body: { jwt_enabled: true, jwt_ttl_seconds: 600 } })).status).toBe(200);
    expect((await t.call('GET', api('/nas'), { auth: fresh })).status).toBe(200);
  });
});
