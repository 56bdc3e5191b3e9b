import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemPrincipal } from '@dms/core';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { addNas, addPool, addShare, addTrap, expectModelError, joinPool } from '../testing/fixtures.js';

/** Every POST and PUT endpoint reads its body through readJsonBody: 415 for a body not declared JSON, 400 for anything that is not a JSON object. */
let t: TestApp;
let writes: Array<[string, string]>;

beforeAll(async () => {
  t = await createTestApp();
  const nas = await addNas(t, { name: 'body-nas' });
  const share = await addShare(t, nas, { name: 'body-share' });
  const pool = await addPool(t, { name: 'body-pool' });
  await joinPool(t, pool, [share.id]);
  const trap = await addTrap(t);
  writes = [
    ['POST', `/api/v2/nas/${nas.id}/nas_shares`],
    ['PUT', `/api/v2/nas/${nas.id}/nas_shares/${share.id}`],
    ['PUT', `/api/v2/nas_shares/${share.id}`],
    ['PUT', `/api/v2/pools/${pool.id}/nas_shares/${share.id}`],
    ['POST', '/api/v2/snmp/traps'],
    ['PUT', `/api/v2/snmp/traps/${trap.snmp_trap_id}`],
    ['PUT', '/api/v2/snmp/server_configuration'],
    ['POST', '/api/v2/nas'],
    ['PUT', `/api/v2/nas/${nas.id}`],
    ['POST', '/api/v2/pools'],
    ['PUT', `/api/v2/pools/${pool.id}`],
  ];
});
afterAll(() => t.close());

/** Nothing a rejected request could have written: counts and the share's fields. */
async function snapshot(): Promise<string> {
  const [nas, pools, shares, traps, config] = await Promise.all([
    t.core.nas.list(systemPrincipal, { per_page: ['100'] }),
    t.core.pools.list(systemPrincipal, { per_page: ['100'] }),
    t.core.shares.list(systemPrincipal, { kind: 'all' }, { limit: ['100'] }),
    t.core.traps.list(systemPrincipal, { per_page: ['100'] }),
    t.core.snmpConfig.show(systemPrincipal),
  ]);
  return JSON.stringify({ nas, pools, shares, traps, config });
}

describe('request bodies', () => {
  it.each<[string, string, string, string]>([
    ['malformed JSON', '{"name": "x",', 'body', 'invalid'],
    ['truncated JSON', '{', 'body', 'invalid'],
    ['single-quoted JSON', "{'name': 'x'}", 'body', 'invalid'],
    ['an array', '[{"name": "x", "path": "/x"}]', 'body', 'invalid'],
    ['an empty array', '[]', 'body', 'invalid'],
    ['a string', '"name"', 'body', 'invalid'],
    ['a number', '42', 'body', 'invalid'],
    ['true', 'true', 'body', 'invalid'],
    ['null', 'null', 'body', 'invalid'],
    ['an empty body', '', 'body', 'blank'],
    ['only whitespace', '  \n ', 'body', 'blank'],
  ])('answers 400 for %s on every POST and PUT', async (_label, text, attribute, type) => {
    const before = await snapshot();
    for (const [method, path] of writes) {
      const res = await t.app.request(path, { method, headers: { authorization: t.basic, 'content-type': 'application/json' }, body: text });
      await expectModelError(res, 400, attribute, type);
    }
    expect(await snapshot()).toBe(before);
  });

  it.each([
    'text/plain',
    'text/plain;charset=UTF-8',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/xml',
    'application/jsonx',
    'application/merge-patch+json',
    'application/json; charset=latin1',
  ])('issue 40 item 2: answers 415 naming application/json for %s', async (contentType) => {
    const before = await snapshot();
    for (const [method, path] of writes) {
      const res = await t.call(method, path, {
        auth: t.basic,
        body: { name: 'ok-name', path: '/x', manager: 'h' },
        headers: { 'content-type': contentType },
      });
      const body = await expectModelError(res, 415, 'content-type', 'invalid');
      expect(body.messages.join(' ')).toMatch(/Content-Type: application\/json/);
    }
    expect(await snapshot()).toBe(before);
  });

  it('issue 40 item 2: a JSON body sent without Content-Type is 415, never read as JSON', async () => {
    const before = await snapshot();
    for (const [method, path] of [...writes, ['POST', '/api/v2/users'] as [string, string]]) {
      // What a page elsewhere sends with no CORS preflight: a body with no declared type.
      const res = await t.app.request(path, {
        method,
        headers: { authorization: t.basic },
        body: new Blob([JSON.stringify({ name: 'ok-name', path: '/x', manager: 'h', username: 'forged', password: 'forged-password-123', admin: true })]),
      });
      expect(res.headers.get('content-type'), `${method} ${path}`).toMatch(/json/);
      const body = await expectModelError(res, 415, 'content-type', 'blank');
      expect(body.messages.join(' ')).toMatch(/Content-Type: application\/json/);
    }
    expect(await snapshot()).toBe(before);
    expect((await t.core.users.list(systemPrincipal, {})).users.map((user) => user.username)).not.toContain('forged');
  });

  it('accepts application/json with parameters, a UTF-8 charset included', async () => {
    for (const contentType of [
      'application/json; charset=utf-8',
      'Application/JSON',
      'application/json;charset="UTF-8"',
      'application/json; charset=utf-8; version=2',
    ]) {
      const res = await t.call('PUT', '/api/v2/snmp/server_configuration', {
        auth: t.basic,
        body: { contact: contentType },
        headers: { 'content-type': contentType },
      });
      expect(res.status, contentType).toBe(200);
    }
  });

  it('reads the body before resolving the share: a malformed body to an unknown share is 400', async () => {
    await expectModelError(await t.call('PUT', '/api/v2/nas_shares/999999', { auth: t.basic, body: '{oops' }), 400, 'body', 'invalid');
    await expectModelError(await t.call('PUT', '/api/v2/nas_shares/999999', { auth: t.basic, body: { path: '/x' } }), 404, 'nas_share_id', 'not_found');
  });
});
