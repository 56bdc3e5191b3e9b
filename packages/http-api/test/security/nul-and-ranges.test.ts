import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../src/testing/test-app.js';
import { addNas, addPool, addShare, expectModelError, readJson, type Nas, type NasShare, type Pool } from '../../src/testing/fixtures.js';

/**
 * Security round 2, finding 9 (L3): NUL and out-of-range integers were PostgreSQL errors (500),
 * some without credentials. Every suite here runs on both adapters (vitest projects sqlite and
 * postgres), and each answer must be the same on both.
 */
const api = (path: string) => `/api/v2${path}`;

describe('security round 2: NUL bytes and integer ranges', () => {
  let t: TestApp;
  let nas: Nas;
  let pool: Pool;
  let share: NasShare;
  beforeAll(async () => {
    t = await createTestApp();
    nas = await addNas(t);
    pool = await addPool(t);
    share = await addShare(t, nas);
  });
  afterAll(() => t.close());

  it('finding 20.9: a path id or name with NUL is 404 (no name can hold one), never 500', async () => {
    const refs: Array<[string, string]> = [
      ['/nas/a%00b', 'nas_id'],
      ['/pools/a%00b', 'pool_id'],
      ['/nas_shares/a%00b', 'nas_share_id'],
      [`/nas/${nas.id}/nas_shares/a%00b`, 'nas_share_id'],
      [`/pools/${pool.id}/nas_shares/a%00b`, 'nas_share_id'],
      ['/nas/%00/nas_shares', 'nas_id'],
      ['/users/a%00b', 'user_id'],
      ['/api_keys/1%00', 'api_key_id'],
      ['/snmp/traps/1%00', 'snmp_trap_id'],
      ['/cors_rules/%00', 'cors_rule_id'],
    ];
    for (const [path, attribute] of refs) {
      const error = await expectModelError(await t.call('GET', api(path), { auth: t.basic }), 404, attribute, 'not_found');
      expect(error.details[attribute]![0]!.value, path).toContain('\u0000');
    }
    const renamed = await t.call('PUT', api('/nas/x%00'), { auth: t.basic, body: { comment: 'c' } });
    await expectModelError(renamed, 404, 'nas_id', 'not_found');
  });

  it('finding 20.9: a query parameter with NUL is 400 naming it, on every list and in job_id', async () => {
    const lists: Array<[string, string]> = [
      ['/nas?name=a%00b', 'name'],
      ['/nas?name=~a%00%25', 'name'],
      ['/nas?host=><a|b%00', 'host'],
      ['/pools?comment=!=%00', 'comment'],
      ['/nas_shares?path=%00', 'path'],
      [`/nas/${nas.id}/nas_shares?username=%00`, 'username'],
      ['/snmp/traps?manager=%00', 'manager'],
      ['/users?username=a%00', 'username'],
      ['/api_keys?name=%00', 'name'],
      ['/cors_rules?path=%00', 'path'],
      ['/nas?sort_by=name%00', 'sort_by'],
      ['/nas?limit=1%00', 'limit'],
      ['/nas?na%00me=x', 'na\u0000me'],
    ];
    for (const [path, attribute] of lists) {
      const error = await expectModelError(await t.call('GET', api(path), { auth: t.basic }), 400, attribute, 'invalid');
      expect(error.messages.join(' '), path).toContain('must not contain NUL characters (%00)');
    }
    for (const path of [
      `/nas/${nas.id}/nas_shares/-/test?job_id=a%00b`,
      `/nas_shares/${share.id}/test?job_id=%00`,
      `/nas_shares/${share.id}/scan?job_id=x%00`,
    ]) {
      const error = await expectModelError(await t.call('GET', api(path), { auth: t.basic }), 400, 'job_id', 'invalid');
      expect(error.messages).toEqual(['job_id must not contain NUL characters (%00)']);
    }
  });

  it("finding 20.9: an integer filter beyond its column's range is 400 naming the bounds; within it, the list answers", async () => {
    const int32 = 'must be between -2147483648 and 2147483647';
    const beyond: Array<[string, string, string]> = [
      ['/nas?id=>999999999999999', 'id', `id filter value '999999999999999' ${int32}`],
      ['/nas?id=><1|2147483648', 'id', `id filter value '2147483648' ${int32}`],
      ['/nas?id=<-2147483649', 'id', `id filter value '-2147483649' ${int32}`],
      ['/nas_shares?nas_id=99999999999999999999', 'nas_id', `nas_id filter value '99999999999999999999' ${int32}`],
      ['/pools?primary_id=!=3000000000', 'primary_id', `primary_id filter value '3000000000' ${int32}`],
      ['/snmp/traps?severity_low=>=4294967296', 'severity_low', `severity_low filter value '4294967296' ${int32}`],
      ['/users?id=9007199254740993', 'id', `id filter value '9007199254740993' ${int32}`],
      ['/nas?id=123456789012345678901', 'id', `id filter value '123456789012345678901' must be an integer between -2147483648 and 2147483647`],
    ];
    for (const [path, attribute, message] of beyond) {
      const error = await expectModelError(await t.call('GET', api(path), { auth: t.basic }), 400, attribute, 'invalid');
      expect(error.messages, path).toEqual([message]);
    }
    for (const path of ['/nas?id=<2147483647', '/nas?id=>-2147483648', `/nas_shares?nas_id=><${nas.id}|2147483647`]) {
      const res = await t.call('GET', api(path), { auth: t.basic });
      expect(res.status, path).toBe(200);
      expect((await readJson<{ count: number }>(res)).count, path).toBe(1);
    }
  });

  it('finding 20.9: a body string with NUL is 422 naming the field, passwords and the login included', async () => {
    const bodies: Array<[string, string, unknown, string]> = [
      ['POST', '/users', { username: 'nul', password: 'long-enough\u0000pass' }, 'password'],
      ['PUT', `/nas_shares/${share.id}`, { password: 'secret\u0000' }, 'password'],
      ['POST', '/nas', { name: 'n', host: 'nas.example', type: 'local', comment: '\u0000' }, 'comment'],
      ['POST', '/cors_rules', { origins: ['https://a.example', 'https://b.example\u0000'], methods: ['GET'] }, 'origins.1'],
      ['PUT', '/snmp/server_configuration', { community: 'pub\u0000lic' }, 'community'],
    ];
    for (const [method, path, body, attribute] of bodies) {
      const error = await expectModelError(await t.call(method, api(path), { auth: t.basic, body }), 422, attribute, 'invalid');
      expect(error.messages.join(' '), path).toMatch(/must not contain NUL characters/);
    }
    expect((await t.call('GET', api('/users/nul'), { auth: t.basic })).status).toBe(404);
    // Without credentials: the login body (JWT mode on) is read by the same parser.
    expect((await t.call('PUT', api('/settings'), { auth: t.basic, body: { jwt_enabled: true } })).status).toBe(200);
    const login = await t.call('POST', api('/auth/login'), { body: { username: 'admin\u0000', password: 'x' } });
    const error = await expectModelError(login, 422, 'username', 'invalid');
    expect(error.messages).toEqual(['username must not contain NUL characters (\\u0000)']);
    expect((await t.call('PUT', api('/settings'), { auth: t.basic, body: { jwt_enabled: false } })).status).toBe(200);
  });
});
