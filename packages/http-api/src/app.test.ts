import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, adminUsername, type TestApp } from './testing/test-app.js';
import { addNas, addShare, expectModelError } from './testing/fixtures.js';

/** What createApp adds around the routes: authentication, 404, 405, body limit, request ids. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  const nas = await addNas(t, { name: 'app-nas' });
  await addShare(t, nas, { name: 'app-share' });
});
afterAll(() => t.close());

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('401 Unauthorized', () => {
  it.each<[string, string | undefined]>([
    ['no Authorization header', undefined],
    ['a wrong Basic password', basic(adminUsername, 'wrong-password')],
    ['an unknown Basic user', basic('nobody', 'admin-password-1')],
    ['Basic without a colon', `Basic ${Buffer.from('admin').toString('base64')}`],
    ['Basic with garbage', 'Basic !!!not-base64!!!'],
    ['Basic with nothing after it', 'Basic'],
    ['an unknown API key', 'Bearer dms_thisKeyWasNeverIssued0000000000000000000000'],
    ['an empty Bearer value', 'Bearer '],
    ['a JWT while JWT mode is off', 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZG1pbiJ9.c2lnbmF0dXJl'],
    ['an unknown scheme', 'Digest username="admin"'],
    ['a bare token', 'dms_abcdef'],
  ])('answers 401 with WWW-Authenticate for %s', async (_label, auth) => {
    const res = await t.call('GET', '/api/v2/nas_shares', auth === undefined ? {} : { auth });
    await expectModelError(res, 401, 'authorization', 'invalid');
    const challenge = res.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(/Basic realm="dms"/);
    expect(challenge).toMatch(/Bearer realm="dms"/);
  });

  it('answers 401 for writes without a credential and changes nothing', async () => {
    await expectModelError(await t.call('POST', '/api/v2/nas', { body: { name: 'sneaky', host: 'h', type: 'local' } }), 401);
    await expectModelError(await t.call('DELETE', '/api/v2/nas_shares/1'), 401);
    expect((await t.call('GET', '/api/v2/nas/sneaky', { auth: t.basic })).status).toBe(404);
    expect((await t.call('GET', '/api/v2/nas_shares/1', { auth: t.basic })).status).toBe(200);
  });

  it('accepts the right Basic credential with any scheme casing', async () => {
    expect((await t.call('GET', '/api/v2/nas_shares', { auth: t.basic.replace('Basic', 'basic') })).status).toBe(200);
  });
});

describe('403 Forbidden', () => {
  it('names the missing scope in the message and the details', async () => {
    const key = await t.bearer('nas_shares/index');
    const res = await t.call('GET', '/api/v2/nas_shares/1', { auth: key });
    const body = await expectModelError(res, 403, 'scope', 'forbidden');
    expect(body.messages.join(' ')).toContain('nas_shares / show');
    expect(body.details['scope']![0]!.value).toBe('nas_shares / show');
    expect(res.headers.get('www-authenticate')).toBeNull();
  });

  it('is answered before a 404 or a 422, so a key learns nothing about what it cannot reach', async () => {
    const key = await t.bearer('traps/index');
    await expectModelError(await t.call('GET', '/api/v2/nas_shares/999999', { auth: key }), 403, 'scope', 'forbidden');
    await expectModelError(await t.call('POST', '/api/v2/nas/app-nas/nas_shares', { auth: key, body: {} }), 403, 'scope', 'forbidden');
  });
});

describe('404 Not Found', () => {
  it('answers 404 not_found for a path that names no resource', async () => {
    for (const path of ['/api/v2/no_such_thing', '/api/v2/nas_shares/1/extra', '/api/v2/snmp', '/api/v2/nas_shares/']) {
      const body = await expectModelError(await t.call('GET', path, { auth: t.basic }), 404, 'path', 'not_found');
      expect(body.details['path']![0]!.value).toBe(path);
    }
  });

  it('answers 404 naming v2 for another API version, with or without a credential', async () => {
    for (const [path, version] of [
      ['/api/v1/nas_shares', 'v1'],
      ['/api/v3/snmp/traps', 'v3'],
      ['/api/v1', 'v1'],
    ] as const) {
      for (const auth of [undefined, t.basic]) {
        const res = await t.call('GET', path, auth === undefined ? {} : { auth });
        const body = await expectModelError(res, 404, 'api_version', 'not_found');
        expect(body.details['api_version']![0]!.value).toBe(version);
        expect(body.messages.join(' ')).toMatch(/v2/);
        expect(body.messages.join(' ')).toContain('/api/v2');
      }
    }
  });
});

describe('405 Method Not Allowed', () => {
  it.each<[string, string, string[]]>([
    ['PATCH', '/api/v2/nas_shares/1', ['GET', 'HEAD', 'PUT', 'DELETE']],
    ['POST', '/api/v2/nas_shares', ['GET', 'HEAD']],
    ['DELETE', '/api/v2/nas_shares', ['GET', 'HEAD']],
    ['PUT', '/api/v2/nas/app-nas/nas_shares', ['GET', 'HEAD', 'POST']],
    ['POST', '/api/v2/nas/app-nas/nas_shares/app-share', ['GET', 'HEAD', 'PUT', 'DELETE']],
    ['POST', '/api/v2/pools/1/nas_shares', ['GET', 'HEAD']],
    ['DELETE', '/api/v2/snmp/server_configuration', ['GET', 'HEAD', 'PUT']],
    ['POST', '/api/v2/snmp/server_configuration', ['GET', 'HEAD', 'PUT']],
    ['PATCH', '/api/v2/snmp/traps', ['GET', 'HEAD', 'POST']],
    ['POST', '/api/v2/snmp/traps/1', ['GET', 'HEAD', 'PUT', 'DELETE']],
    ['DELETE', '/api/v2/nas', ['GET', 'HEAD', 'POST']],
    ['POST', '/api/v2/pools/1', ['GET', 'HEAD', 'PUT', 'DELETE']],
  ])('%s %s answers 405 with Allow', async (method, path, allowed) => {
    const res = await t.call(method, path, { auth: t.basic });
    const body = await expectModelError(res, 405, 'method', 'invalid');
    expect(body.details['method']![0]!.value).toBe(method);
    const allow = (res.headers.get('allow') ?? '').split(',').map((m) => m.trim());
    expect(allow.sort()).toEqual([...allowed].sort());
  });

  it('HEAD works wherever GET does', async () => {
    const res = await t.call('HEAD', '/api/v2/nas_shares', { auth: t.basic });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });
});

describe('413 Payload Too Large', () => {
  it('answers 413 for a body over 1 MiB and creates nothing', async () => {
    const body = JSON.stringify({ name: 'huge', path: 'p'.repeat(1024 * 1024 + 10) });
    const res = await t.call('POST', '/api/v2/nas/app-nas/nas_shares', { auth: t.basic, body, headers: { 'content-length': String(body.length) } });
    await expectModelError(res, 413);
    expect((await t.call('GET', '/api/v2/nas/app-nas/nas_shares/huge', { auth: t.basic })).status).toBe(404);
  });
});

describe('X-Request-Id', () => {
  it('is on every response: success, error, public', async () => {
    const responses = [
      await t.call('GET', '/api/v2/nas_shares', { auth: t.basic }),
      await t.call('GET', '/api/v2/nas_shares'),
      await t.call('GET', '/api/v2/nas_shares/999999', { auth: t.basic }),
      await t.call('GET', '/api/v2'),
      await t.call('GET', '/healthz'),
    ];
    const ids = responses.map((res) => res.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(/^[\w-]{8,}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
