import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { systemPrincipal, type DmsEvent } from '@dms/core';
import { adminPassword, adminUsername, createTestApp, type TestApp } from '../../src/testing/test-app.js';
import { addNas, addShare, expectModelError, readJson, unique } from '../../src/testing/fixtures.js';
import { createMemoryRateLimiter } from '@dms/core/memory';

/**
 * The administration surface over HTTP (docs/api.md#status-codes, docs/decisions/046-jwt.md, docs/decisions/047-cors-rules.md): JWT mode, API keys,
 * users, CORS rules, settings, metrics, ETags, the body limit and the rate limits, each
 * against a real app over a real SQLite database.
 */

const basicOf = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const api = (path: string) => `/api/v2${path}`;

interface ApiKeyBody {
  id: number;
  name: string;
  key?: string;
  masked_key: string;
  api_key_scopes: Array<{ controller: string; action: string }>;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
}
interface TokenBody {
  token: string;
  expires_at: string;
}

describe('JWT mode', () => {
  const start = Date.parse('2031-03-04T05:06:07.000Z');
  let now = start;
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ clock: () => new Date(now) });
    await addShare(t, await addNas(t));
  });
  afterAll(() => t.close());
  afterEach(() => {
    now = start;
  });

  const login = (username: string, password: string) => t.call('POST', api('/auth/login'), { body: { username, password } });
  const setJwt = async (body: Record<string, unknown>) => {
    const res = await t.call('PUT', api('/settings'), { auth: t.basic, body });
    expect(res.status, await res.clone().text()).toBe(200);
    return readJson<{ jwt_enabled: boolean; jwt_ttl_seconds: number }>(res);
  };
  const shares = (auth: string) => t.call('GET', api('/nas_shares'), { auth });

  it('is off by default: login is 403 and a JWT is 401', async () => {
    const settings = await readJson<{ jwt_enabled: boolean; jwt_ttl_seconds: number }>(await t.call('GET', api('/settings'), { auth: t.basic }));
    expect(settings).toMatchObject({ jwt_enabled: false, jwt_ttl_seconds: 3600 });
    await expectModelError(await login(adminUsername, adminPassword), 403, 'jwt_enabled');
    const forged = await new SignJWT({ username: adminUsername })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject('1')
      .setIssuer('dms')
      .setAudience('dms-api')
      .setIssuedAt(Math.floor(now / 1000))
      .setExpirationTime(Math.floor(now / 1000) + 3600)
      .sign(randomBytes(32));
    const res = await shares(`Bearer ${forged}`);
    await expectModelError(res, 401, 'authorization', 'invalid');
    expect(res.headers.get('www-authenticate')).toMatch(/Bearer/);
  });

  it('logs in once enabled, and the token works as Bearer until it expires', async () => {
    await setJwt({ jwt_enabled: true });
    const res = await login(adminUsername, adminPassword);
    expect(res.status).toBe(200);
    const body = await readJson<TokenBody>(res);
    expect(Object.keys(body).sort()).toEqual(['expires_at', 'token']);
    expect(body.token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    // 1 h by default, counted from the injected clock (seconds are whole in a JWT).
    expect(Date.parse(body.expires_at)).toBe(Math.floor(start / 1000) * 1000 + 3600_000);

    const bearer = `Bearer ${body.token}`;
    const list = await shares(bearer);
    expect(list.status).toBe(200);
    expect((await readJson<{ count: number }>(list)).count).toBe(1);
    // A JWT user has a user's full access, the admin surface included.
    expect((await t.call('GET', api('/api_keys/current'), { auth: bearer })).status).toBe(200);

    now = start + 3599_000;
    expect((await shares(bearer)).status).toBe(200);
    now = start + 3601_000;
    await expectModelError(await shares(bearer), 401, 'authorization', 'invalid');
  });

  it('takes its lifetime from jwt_ttl_seconds', async () => {
    await setJwt({ jwt_enabled: true, jwt_ttl_seconds: 120 });
    try {
      const body = await readJson<TokenBody>(await login(adminUsername, adminPassword));
      expect(Date.parse(body.expires_at) - Math.floor(start / 1000) * 1000).toBe(120_000);
      now = start + 119_000;
      expect((await shares(`Bearer ${body.token}`)).status).toBe(200);
      now = start + 121_000;
      expect((await shares(`Bearer ${body.token}`)).status).toBe(401);
    } finally {
      await setJwt({ jwt_ttl_seconds: 3600 });
    }
  });

  it('rejects a token whose signature or payload was tampered with', async () => {
    await setJwt({ jwt_enabled: true });
    const { token } = await readJson<TokenBody>(await login(adminUsername, adminPassword));
    const [header, payload, signature] = token.split('.') as [string, string, string];
    expect((await shares(`Bearer ${token}`)).status).toBe(200);

    const middle = Math.floor(signature.length / 2);
    const flipped = signature[middle] === 'A' ? 'B' : 'A';
    const badSignature = `${header}.${payload}.${signature.slice(0, middle)}${flipped}${signature.slice(middle + 1)}`;
    await expectModelError(await shares(`Bearer ${badSignature}`), 401, 'authorization');

    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const longer = Buffer.from(JSON.stringify({ ...claims, exp: Number(claims['exp']) + 86_400 * 365 })).toString('base64url');
    await expectModelError(await shares(`Bearer ${header}.${longer}.${signature}`), 401, 'authorization');

    const unsigned = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    await expectModelError(await shares(`Bearer ${unsigned}.${payload}.`), 401, 'authorization');
    await expectModelError(await shares(`Bearer ${header}.${payload}.`), 401, 'authorization');
  });

  it('rejects a token of a deleted user, even when the name is taken again', async () => {
    await setJwt({ jwt_enabled: true });
    const name = unique('jwt-user');
    const created = await t.call('POST', api('/users'), { auth: t.basic, body: { username: name, password: 'first-password-1' } });
    expect(created.status).toBe(201);
    const { token } = await readJson<TokenBody>(await login(name, 'first-password-1'));
    expect((await shares(`Bearer ${token}`)).status).toBe(200);

    expect((await t.call('DELETE', api(`/users/${name}`), { auth: t.basic })).status).toBe(204);
    await expectModelError(await shares(`Bearer ${token}`), 401, 'authorization');

    expect((await t.call('POST', api('/users'), { auth: t.basic, body: { username: name, password: 'second-password-2' } })).status).toBe(201);
    await expectModelError(await shares(`Bearer ${token}`), 401, 'authorization');
  });

  it('answers 401 for a wrong password or an unknown user on login', async () => {
    await setJwt({ jwt_enabled: true });
    const wrong = await expectModelError(await login(adminUsername, 'not-the-password'), 401, 'authorization', 'invalid');
    expect(JSON.stringify(wrong)).not.toMatch(/eyJ/);
    await expectModelError(await login('nobody-here', adminPassword), 401, 'authorization', 'invalid');
    await expectModelError(await t.call('POST', api('/auth/login'), { body: { username: adminUsername } }), 422, 'password', 'blank');
  });

  it('turned off again: the same (still unexpired) token is 401 and login is 403', async () => {
    await setJwt({ jwt_enabled: true });
    const { token } = await readJson<TokenBody>(await login(adminUsername, adminPassword));
    expect((await shares(`Bearer ${token}`)).status).toBe(200);
    await setJwt({ jwt_enabled: false });
    await expectModelError(await shares(`Bearer ${token}`), 401, 'authorization');
    await expectModelError(await login(adminUsername, adminPassword), 403);
    // Basic keeps working whatever the mode.
    expect((await shares(t.basic)).status).toBe(200);
  });
});

describe('API keys over REST', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const createKey = (auth: string, body: Record<string, unknown>) => t.call('POST', api('/api_keys'), { auth, body });
  const scopes = (...texts: string[]) => texts.map((text) => ({ controller: text.split('/')[0]!, action: text.split('/')[1]! }));

  it('shows the key once on create, then only masked (last 4 characters)', async () => {
    const res = await createKey(t.basic, { name: 'reader', api_key_scopes: scopes('nas_shares/index') });
    expect(res.status).toBe(201);
    const created = await readJson<ApiKeyBody>(res);
    expect(created.key).toMatch(/^dms_[\w-]{20,}$/);
    const key = created.key!;
    expect(created.masked_key.endsWith(key.slice(-4))).toBe(true);
    expect(created.masked_key).not.toContain(key.slice(0, -4).slice(4));
    expect(created.last_used_at).toBeNull();

    for (const path of [`/api_keys/${created.id}`, '/api_keys', `/api_keys?id=${created.id}`]) {
      const text = await (await t.call('GET', api(path), { auth: t.basic })).text();
      expect(text).not.toContain(key);
      expect(text).not.toContain(key.slice(4, 20));
      expect(text).not.toMatch(/"key"\s*:/);
      expect(text).toContain(created.masked_key);
    }
    const shown = await readJson<ApiKeyBody>(await t.call('GET', api(`/api_keys/${created.id}`), { auth: t.basic }));
    expect(Object.keys(shown).sort()).toEqual(['api_key_scopes', 'created_at', 'expires_at', 'id', 'last_used_at', 'masked_key', 'name', 'role']);
    expect(shown.masked_key).toBe(created.masked_key);

    // The key works, and using it records last_used_at.
    expect((await t.call('GET', api('/nas_shares'), { auth: `Bearer ${key}` })).status).toBe(200);
    const used = await readJson<ApiKeyBody>(await t.call('GET', api(`/api_keys/${created.id}`), { auth: t.basic }));
    expect(used.last_used_at).not.toBeNull();
    expect(Date.now() - Date.parse(used.last_used_at!)).toBeLessThan(60_000);
  });

  it('refuses to create a key that has already expired, naming now', async () => {
    const past = await expectModelError(
      await createKey(t.basic, { name: 'born-expired', api_key_scopes: scopes('nas/index'), expires_at: '2020-01-01T00:00:00Z' }),
      422,
      'expires_at',
      'greater_than_or_equal_to',
    );
    expect(past.messages[0]).toMatch(/^expires_at must be later than now \(\d{4}-/);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await createKey(t.basic, { name: 'expires-later', api_key_scopes: scopes('nas/index'), expires_at: future })).status).toBe(201);
  });

  it('does not let a key grant what it does not hold', async () => {
    const creator = await t.bearer('api_keys/create', 'nas_shares/show');
    const before = (await t.core.apiKeys.list(systemPrincipal, {})).count;
    for (const wider of [
      scopes('nas/*'),
      scopes('nas_shares/*'),
      scopes('nas_shares/get_password'),
      scopes('*/show'),
      scopes('nas_shares/show', 'users/create'),
    ]) {
      const res = await createKey(creator, { name: 'wider', api_key_scopes: wider });
      await expectModelError(res, 403, 'api_key_scopes', 'forbidden');
    }
    expect((await t.core.apiKeys.list(systemPrincipal, {})).count).toBe(before);

    const subset = await createKey(creator, { name: 'narrower', api_key_scopes: scopes('nas_shares/show') });
    expect(subset.status).toBe(201);
    const narrower = await readJson<ApiKeyBody>(subset);
    expect(narrower.api_key_scopes).toEqual(scopes('nas_shares/show'));
    // The new key can do what it was given and nothing else.
    await expectModelError(await t.call('GET', api('/nas_shares'), { auth: `Bearer ${narrower.key!}` }), 403, 'scope');
  });

  it('does not let a key widen another key (or itself) by update, nor touch a wider key', async () => {
    const editorKey = await t.bearer('api_keys/update', 'api_keys/destroy', 'api_keys/show', 'nas_shares/show');
    const editorId = (await readJson<{ id: number }>(await t.call('GET', api('/api_keys/current'), { auth: editorKey }))).id;
    const target = await readJson<ApiKeyBody>(await createKey(t.basic, { name: 'target', api_key_scopes: scopes('nas_shares/show') }));
    const wide = await readJson<ApiKeyBody>(await createKey(t.basic, { name: 'wide', api_key_scopes: scopes('*/*') }));

    await expectModelError(
      await t.call('PUT', api(`/api_keys/${target.id}`), { auth: editorKey, body: { api_key_scopes: scopes('nas_shares/*') } }),
      403,
      'api_key_scopes',
    );
    await expectModelError(
      await t.call('PUT', api(`/api_keys/${target.id}`), { auth: editorKey, body: { api_key_scopes: scopes('*/*') } }),
      403,
      'api_key_scopes',
    );
    await expectModelError(
      await t.call('PUT', api(`/api_keys/${editorId}`), { auth: editorKey, body: { api_key_scopes: scopes('api_keys/*', 'nas_shares/show') } }),
      403,
    );
    await expectModelError(await t.call('PUT', api(`/api_keys/${wide.id}`), { auth: editorKey, body: { name: 'renamed' } }), 403);
    // Narrowing or expiring a wider key is touching it too.
    await expectModelError(await t.call('PUT', api(`/api_keys/${wide.id}`), { auth: editorKey, body: { api_key_scopes: scopes('nas_shares/show') } }), 403);
    await expectModelError(
      await t.call('PUT', api(`/api_keys/${wide.id}`), {
        auth: editorKey,
        body: { api_key_scopes: scopes('nas_shares/show'), expires_at: '2000-01-01T00:00:00Z' },
      }),
      403,
    );
    await expectModelError(await t.call('DELETE', api(`/api_keys/${wide.id}`), { auth: editorKey }), 403);

    const unchanged = await readJson<ApiKeyBody>(await t.call('GET', api(`/api_keys/${target.id}`), { auth: t.basic }));
    expect(unchanged.api_key_scopes).toEqual(scopes('nas_shares/show'));
    expect((await readJson<ApiKeyBody>(await t.call('GET', api(`/api_keys/${wide.id}`), { auth: t.basic }))).name).toBe('wide');

    // Within its reach, the edit is allowed.
    const renamed = await t.call('PUT', api(`/api_keys/${target.id}`), {
      auth: editorKey,
      body: { name: 'target renamed', api_key_scopes: scopes('nas_shares/show') },
    });
    expect(renamed.status).toBe(200);
    expect((await readJson<ApiKeyBody>(renamed)).name).toBe('target renamed');
  });

  it('shows the caller its own scopes on /api_keys/current', async () => {
    const key = await t.bearer('nas_shares/index', 'pools/show');
    const res = await t.call('GET', api('/api_keys/current'), { auth: key });
    expect(res.status).toBe(200);
    const body = await readJson<{ kind: string; name: string; id: number; api_key_scopes: unknown }>(res);
    expect(body.kind).toBe('api_key');
    expect(body.api_key_scopes).toEqual(scopes('nas_shares/index', 'pools/show'));
    expect(typeof body.id).toBe('number');
    const user = await readJson<{ kind: string; name: string }>(await t.call('GET', api('/api_keys/current'), { auth: t.basic }));
    expect(user).toMatchObject({ kind: 'user', name: adminUsername });
  });
});

describe('users over REST', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const noSecret = (text: string, password: string) => {
    expect(text).not.toContain(password);
    expect(text).not.toMatch(/password/i);
    expect(text).not.toContain('$argon2');
  };

  it('takes a password on create and never shows it, then changes it', async () => {
    const name = unique('carol');
    const created = await t.call('POST', api('/users'), { auth: t.basic, body: { username: name, password: 'carol-secret-1', admin: false } });
    const createdText = await created.text();
    expect(created.status, createdText).toBe(201);
    noSecret(createdText, 'carol-secret-1');
    const user = JSON.parse(createdText) as { id: number; username: string; admin: boolean };
    expect(user).toMatchObject({ username: name, admin: false });

    noSecret(await (await t.call('GET', api(`/users/${user.id}`), { auth: t.basic })).text(), 'carol-secret-1');
    noSecret(await (await t.call('GET', api(`/users/${name}`), { auth: t.basic })).text(), 'carol-secret-1');
    noSecret(await (await t.call('GET', api('/users'), { auth: t.basic })).text(), 'carol-secret-1');

    const oldBasic = basicOf(name, 'carol-secret-1');
    expect((await t.call('GET', api('/nas'), { auth: oldBasic })).status).toBe(200);
    const updated = await t.call('PUT', api(`/users/${user.id}`), { auth: t.basic, body: { password: 'carol-secret-2' } });
    const updatedText = await updated.text();
    expect(updated.status, updatedText).toBe(200);
    noSecret(updatedText, 'carol-secret-2');
    await expectModelError(await t.call('GET', api('/nas'), { auth: oldBasic }), 401);
    expect((await t.call('GET', api('/nas'), { auth: basicOf(name, 'carol-secret-2') })).status).toBe(200);

    await expectModelError(await t.call('PUT', api(`/users/${user.id}`), { auth: t.basic, body: { password: 'short' } }), 422, 'password', 'too_short');
    await expectModelError(
      await t.call('POST', api('/users'), { auth: t.basic, body: { username: name, password: 'another-pass-1' } }),
      409,
      'username',
      'taken',
    );
  });

  it('keeps at least one admin: the last one cannot be deleted or demoted (409)', async () => {
    await expectModelError(await t.call('DELETE', api(`/users/${adminUsername}`), { auth: t.basic }), 409, 'admin', 'frozen');
    await expectModelError(await t.call('PUT', api(`/users/${adminUsername}`), { auth: t.basic, body: { admin: false } }), 409, 'admin', 'frozen');
    expect((await t.call('GET', api('/nas'), { auth: t.basic })).status).toBe(200);
    const admin = await readJson<{ admin: boolean }>(await t.call('GET', api(`/users/${adminUsername}`), { auth: t.basic }));
    expect(admin.admin).toBe(true);

    // With a second admin, one of the two may go.
    const second = unique('admin2');
    expect((await t.call('POST', api('/users'), { auth: t.basic, body: { username: second, password: 'second-admin-1', admin: true } })).status).toBe(201);
    const demoted = await t.call('PUT', api(`/users/${second}`), { auth: t.basic, body: { admin: false } });
    expect(demoted.status).toBe(200);
    expect((await readJson<{ admin: boolean }>(demoted)).admin).toBe(false);
    await expectModelError(await t.call('PUT', api(`/users/${adminUsername}`), { auth: t.basic, body: { admin: false } }), 409);
  });

  it('does not let two concurrent deletions remove both remaining admins', async () => {
    const a = unique('admin-a');
    const b = unique('admin-b');
    for (const name of [a, b]) {
      expect((await t.call('POST', api('/users'), { auth: t.basic, body: { username: name, password: 'racing-admin-1', admin: true } })).status).toBe(201);
    }
    // admin, a and b are admins: delete admin first, then race on the last two.
    const key = await t.bearer('*/*');
    expect((await t.call('DELETE', api(`/users/${adminUsername}`), { auth: key })).status).toBe(204);
    const results = await Promise.all([a, b].map((name) => t.call('DELETE', api(`/users/${name}`), { auth: key })));
    expect(results.map((res) => res.status).sort()).toEqual([204, 409]);
    expect(await t.storage.users.countAdmins()).toBe(1);
  });

  it('lets only a key holding */* create users', async () => {
    const key = await t.bearer('users/create', 'users/index', 'users/update');
    await expectModelError(
      await t.call('POST', api('/users'), { auth: key, body: { username: unique('mallory'), password: 'mallory-pass-1', admin: true } }),
      403,
      'scope',
      'forbidden',
    );
    await expectModelError(await t.call('PUT', api('/users/1'), { auth: key, body: { password: 'taken-over-1' } }), 403, 'scope', 'forbidden');
    expect((await t.call('GET', api('/users'), { auth: key })).status).toBe(200);
    const full = await t.bearer('*/*');
    expect((await t.call('POST', api('/users'), { auth: full, body: { username: unique('trent'), password: 'trent-pass-1' } })).status).toBe(201);
  });
});

describe('CORS rules and settings validation', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('creates, shows, updates and deletes a rule', async () => {
    const created = await t.call('POST', api('/cors_rules'), {
      auth: t.basic,
      body: { origins: ['https://app.example.com', 'intranet.example'], path: '/api/v2/nas_shares*', methods: ['GET', 'POST'] },
    });
    expect(created.status).toBe(201);
    const rule = await readJson<{ id: number; origins: string[]; path: string; methods: string[] }>(created);
    expect(rule).toEqual({ id: rule.id, origins: ['https://app.example.com', 'intranet.example'], path: '/api/v2/nas_shares*', methods: ['GET', 'POST'] });
    expect(await readJson(await t.call('GET', api(`/cors_rules/${rule.id}`), { auth: t.basic }))).toEqual(rule);
    const list = await readJson<{ count: number; cors_rules: unknown[] }>(await t.call('GET', api('/cors_rules'), { auth: t.basic }));
    expect(list.count).toBe(1);
    const updated = await t.call('PUT', api(`/cors_rules/${rule.id}`), { auth: t.basic, body: { methods: ['GET'] } });
    expect(updated.status).toBe(200);
    expect(await readJson(updated)).toEqual({ ...rule, methods: ['GET'] });
    const defaulted = await readJson<{ path: string; id: number }>(
      await t.call('POST', api('/cors_rules'), { auth: t.basic, body: { origins: ['*'], methods: ['GET'] } }),
    );
    expect(defaulted.path).toBe('*');
    expect((await t.call('DELETE', api(`/cors_rules/${rule.id}`), { auth: t.basic })).status).toBe(204);
    expect((await t.call('DELETE', api(`/cors_rules/${defaulted.id}`), { auth: t.basic })).status).toBe(204);
    await expectModelError(await t.call('GET', api(`/cors_rules/${rule.id}`), { auth: t.basic }), 404);
    const key = await t.bearer('cors_rules/index');
    await expectModelError(await t.call('POST', api('/cors_rules'), { auth: key, body: { origins: ['*'], methods: ['GET'] } }), 403);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['a javascript: origin', { origins: ['javascript:alert(1)'], methods: ['GET'] }, 'origins.0'],
    ['an origin with a path', { origins: ['https://app.example.com/x'], methods: ['GET'] }, 'origins.0'],
    ['an origin with a space', { origins: ['https://app example.com'], methods: ['GET'] }, 'origins.0'],
    ['an ftp origin', { origins: ['ftp://files.example.com'], methods: ['GET'] }, 'origins.0'],
    ['no origin', { origins: [], methods: ['GET'] }, 'origins'],
    ['an unknown method', { origins: ['*'], methods: ['PATCH'] }, 'methods.0'],
    ['a lower-case method', { origins: ['*'], methods: ['get'] }, 'methods.0'],
    ['no method', { origins: ['*'], methods: [] }, 'methods'],
    ['a relative path', { origins: ['*'], path: 'nas_shares', methods: ['GET'] }, 'path'],
  ])('rejects %s with 422', async (_label, body, attribute) => {
    await expectModelError(await t.call('POST', api('/cors_rules'), { auth: t.basic, body }), 422, attribute);
    expect((await readJson<{ count: number }>(await t.call('GET', api('/cors_rules'), { auth: t.basic }))).count).toBe(0);
  });

  it('validates an update as well', async () => {
    const rule = await readJson<{ id: number }>(await t.call('POST', api('/cors_rules'), { auth: t.basic, body: { origins: ['*'], methods: ['GET'] } }));
    await expectModelError(await t.call('PUT', api(`/cors_rules/${rule.id}`), { auth: t.basic, body: { methods: ['TRACE'] } }), 422, 'methods.0');
    await expectModelError(
      await t.call('PUT', api(`/cors_rules/${rule.id}`), { auth: t.basic, body: { origins: ['https://a.example/path'] } }),
      422,
      'origins.0',
    );
    await expectModelError(await t.call('PUT', api(`/cors_rules/${rule.id}`), { auth: t.basic, body: { path: 'relative*' } }), 422, 'path');
    expect(await readJson(await t.call('GET', api(`/cors_rules/${rule.id}`), { auth: t.basic }))).toEqual({
      id: rule.id,
      origins: ['*'],
      path: '*',
      methods: ['GET'],
    });
    expect((await t.call('DELETE', api(`/cors_rules/${rule.id}`), { auth: t.basic })).status).toBe(204);
  });

  it('validates settings: jwt_ttl_seconds of at least 60, booleans for jwt_enabled', async () => {
    await expectModelError(
      await t.call('PUT', api('/settings'), { auth: t.basic, body: { jwt_ttl_seconds: 59 } }),
      422,
      'jwt_ttl_seconds',
      'greater_than_or_equal_to',
    );
    await expectModelError(await t.call('PUT', api('/settings'), { auth: t.basic, body: { jwt_ttl_seconds: 90.5 } }), 422, 'jwt_ttl_seconds');
    await expectModelError(await t.call('PUT', api('/settings'), { auth: t.basic, body: { jwt_enabled: 'yes' } }), 422, 'jwt_enabled', 'invalid');
    const defaults = {
      jwt_enabled: false,
      jwt_ttl_seconds: 3600,
      job_queue_max_per_principal: 32,
      job_queue_max_total: 256,
      share_test_allowed_hosts: [],
      api_keys_max_per_user: 100,
      job_retention_days: 30,
      audit_retention_days: 365,
      failed_sign_in_retention_days: 30,
      scan_retention_days: 365,
      alert_retention_days: 30,
      schedule_min_interval_seconds: 60,
      capacity_retention_days: 90,
      // single sign-on, off (docs/decisions/177-oidc-sign-in.md)
      oidc_enabled: false,
      oidc_issuer: null,
      oidc_client_id: null,
      oidc_client_secret_set: false,
      oidc_scopes: 'openid profile email',
      oidc_role_claim: null,
      oidc_role_map: {},
      oidc_auto_create: false,
      oidc_button_label: 'single sign-on',
    };
    expect(await readJson(await t.call('GET', api('/settings'), { auth: t.basic }))).toEqual(defaults);
    const ok = await t.call('PUT', api('/settings'), { auth: t.basic, body: { jwt_ttl_seconds: 60 } });
    expect(ok.status).toBe(200);
    expect(await readJson(ok)).toEqual({ ...defaults, jwt_ttl_seconds: 60 });
    await expectModelError(await t.call('PUT', api('/settings'), { auth: await t.bearer('settings/show'), body: { jwt_enabled: true } }), 403);
  });
});

describe('metrics, ETags and the body limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await addShare(t, await addNas(t, { name: 'etag-nas' }), { name: 'etag-share' });
  });
  afterAll(() => t.close());

  const failureCount = (text: string) => Number(/^dms_auth_failures_total (\d+)/m.exec(text)?.[1] ?? NaN);

  it('serves /metrics only to a credential with metrics / index', async () => {
    await expectModelError(await t.call('GET', '/metrics'), 401);
    await expectModelError(await t.call('GET', '/metrics', { auth: await t.bearer('nas_shares/index') }), 403, 'scope', 'forbidden');

    await t.call('GET', api('/nas'), { auth: basicOf(adminUsername, 'wrong-password') });
    const key = await t.bearer('metrics/index');
    const res = await t.call('GET', '/metrics', { auth: key });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toMatch(/^dms_http_requests_total\{method="GET",route="[^"]+",status="401"\} [1-9]/m);
    expect(text).toMatch(/^dms_http_requests_total\{method="GET",route="\/metrics",status="403"\} 1$/m);
    expect(text).toMatch(/^# TYPE dms_jobs gauge/m);
    expect(text).toMatch(/^# TYPE dms_auth_failures_total counter/m);
    expect(failureCount(text)).toBeGreaterThanOrEqual(1);
  });

  it('counts a wrong credential at /metrics as an authentication failure', async () => {
    const key = await t.bearer('metrics/index');
    const before = failureCount(await (await t.call('GET', '/metrics', { auth: key })).text());
    await expectModelError(await t.call('GET', '/metrics', { auth: basicOf(adminUsername, 'guess-1') }), 401);
    const after = failureCount(await (await t.call('GET', '/metrics', { auth: key })).text());
    expect(after).toBe(before + 1);
  });

  it('gives every GET an ETag, 304 for If-None-Match, and a new ETag after a change', async () => {
    const paths = [
      '',
      '/openapi.json',
      '/nas',
      '/nas/etag-nas',
      '/nas_shares',
      '/nas/etag-nas/nas_shares/etag-share',
      '/pools',
      '/snmp/traps',
      '/snmp/server_configuration',
      '/settings',
      '/api_keys',
      '/api_keys/current',
      '/users',
      '/users/admin',
      '/cors_rules',
    ];
    for (const path of paths) {
      const res = await t.call('GET', api(path), { auth: t.basic });
      expect(res.status, path).toBe(200);
      const etag = res.headers.get('etag');
      expect(etag, path).toMatch(/^(W\/)?"[^"]+"$/);
      const again = await t.call('GET', api(path), { auth: t.basic, headers: { 'if-none-match': etag! } });
      expect(again.status, path).toBe(304);
      expect(await again.text(), path).toBe('');
      expect(again.headers.get('etag'), path).toBe(etag);
    }

    const first = await t.call('GET', api('/nas/etag-nas/nas_shares/etag-share'), { auth: t.basic });
    const etag = first.headers.get('etag')!;
    expect((await t.call('PUT', api('/nas/etag-nas/nas_shares/etag-share'), { auth: t.basic, body: { path: 'elsewhere' } })).status).toBe(200);
    const changed = await t.call('GET', api('/nas/etag-nas/nas_shares/etag-share'), { auth: t.basic, headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect((await readJson<{ path: string }>(changed)).path).toBe('elsewhere');
  });

  it('answers 413 model_error for a body over 1 MiB and stores nothing', async () => {
    const name = unique('big');
    const body = JSON.stringify({ name, host: 'h', type: 'local', comment: 'x'.repeat(1024 * 1024) });
    const res = await t.call('POST', api('/nas'), { auth: t.basic, body });
    await expectModelError(res, 413, 'body', 'too_long');
    await expectModelError(await t.call('GET', api(`/nas/${name}`), { auth: t.basic }), 404);
    // Just under the limit is read (and then validated: the comment is too long for a NAS).
    const under = JSON.stringify({ name, host: 'h', type: 'local', comment: 'x'.repeat(1000) });
    expect((await t.call('POST', api('/nas'), { auth: t.basic, body: under })).status).toBe(201);
  });
});

describe('rate limits', () => {
  it('gives each credential its budget, then 429 with Retry-After and RateLimit-* headers', async () => {
    const t = await createTestApp({
      limits: {
        perCredential: createMemoryRateLimiter({ limit: 5, windowSeconds: 60 }),
        perAddress: createMemoryRateLimiter({ limit: 1000, windowSeconds: 60 }),
        authFailures: createMemoryRateLimiter({ limit: 10, windowSeconds: 60 }),
      },
    });
    try {
      const key = await t.bearer('nas/index');
      for (let i = 1; i <= 5; i += 1) {
        const res = await t.call('GET', api('/nas'), { auth: t.basic });
        expect(res.status).toBe(200);
        expect(res.headers.get('ratelimit-limit')).toBe('5');
        expect(res.headers.get('ratelimit-remaining')).toBe(String(5 - i));
        expect(Number(res.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
      }
      const limited = await t.call('GET', api('/nas'), { auth: t.basic });
      await expectModelError(limited, 429, 'rate_limit');
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(limited.headers.get('ratelimit-limit')).toBe('5');
      expect(limited.headers.get('ratelimit-remaining')).toBe('0');
      expect(Number(limited.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(1);
      // Writes are throttled too, and another credential has its own budget.
      await expectModelError(await t.call('POST', api('/nas'), { auth: t.basic, body: { name: 'n', host: 'h', type: 'local' } }), 429);
      expect((await t.call('GET', api('/nas'), { auth: key })).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  describe('brute force', () => {
    let t: TestApp;
    const events: DmsEvent[] = [];
    const bob = unique('bob');
    const eve = unique('eve');
    beforeAll(async () => {
      t = await createTestApp({
        limits: {
          perCredential: createMemoryRateLimiter({ limit: 1000, windowSeconds: 60 }),
          perAddress: createMemoryRateLimiter({ limit: 1000, windowSeconds: 60 }),
          // A short window so that the test can wait it out; 10 failures as in production.
          authFailures: createMemoryRateLimiter({ limit: 10, windowSeconds: 2 }),
        },
      });
      t.core.events.subscribe((event) => events.push(event));
      for (const name of [bob, eve]) await t.core.users.add({ username: name, password: `${name}-password` });
    });
    afterAll(() => t.close());
    const repeated = () => events.filter((event) => event.name === 'auth_failures_repeated');

    it('blocks a user after 10 failed Basic logins from one address, even with the right password, until the window ends', async () => {
      // Concurrent, so that the ten failures surely fall within one window.
      const failures = await Promise.all(Array.from({ length: 10 }, (_, i) => t.call('GET', api('/nas'), { auth: basicOf(adminUsername, `guess-${i}`) })));
      expect(failures.map((res) => res.status)).toEqual(Array(10).fill(401));
      expect(repeated()).toHaveLength(1);
      expect(repeated()[0]!.message).toContain(adminUsername);

      const blocked = await t.call('GET', api('/nas'), { auth: t.basic });
      await expectModelError(blocked, 429);
      const retryAfter = Number(blocked.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(2);
      // Other users from the same address are not blocked; more attempts raise no new event.
      expect((await t.call('GET', api('/nas'), { auth: basicOf(bob, `${bob}-password`) })).status).toBe(200);
      await expectModelError(await t.call('GET', api('/nas'), { auth: basicOf(adminUsername, 'guess-11') }), 429);
      expect(repeated()).toHaveLength(1);

      await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000 + 150));
      expect((await t.call('GET', api('/nas'), { auth: t.basic })).status).toBe(200);
    });

    it('counts failed POST /auth/login attempts too, against Basic as well', async () => {
      expect((await t.call('PUT', api('/settings'), { auth: t.basic, body: { jwt_enabled: true } })).status).toBe(200);
      const before = repeated().length;
      const failures = await Promise.all(
        Array.from({ length: 10 }, (_, i) => t.call('POST', api('/auth/login'), { body: { username: bob, password: `guess-${i}` } })),
      );
      expect(failures.map((res) => res.status)).toEqual(Array(10).fill(401));
      expect(repeated()).toHaveLength(before + 1);

      const blocked = await t.call('POST', api('/auth/login'), { body: { username: bob, password: `${bob}-password` } });
      expect(JSON.stringify(await expectModelError(blocked, 429))).not.toMatch(/eyJ/);
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      await expectModelError(await t.call('GET', api('/nas'), { auth: basicOf(bob, `${bob}-password`) }), 429);
      // eve from the same address may still log in.
      expect((await t.call('POST', api('/auth/login'), { body: { username: eve, password: `${eve}-password` } })).status).toBe(200);

      await new Promise((resolve) => setTimeout(resolve, Number(blocked.headers.get('retry-after')) * 1000 + 150));
      expect((await t.call('POST', api('/auth/login'), { body: { username: bob, password: `${bob}-password` } })).status).toBe(200);
    });

    it('counts failed Basic credentials sent to /metrics as well', async () => {
      const failures = await Promise.all(Array.from({ length: 10 }, (_, i) => t.call('GET', '/metrics', { auth: basicOf(eve, `guess-${i}`) })));
      expect(failures.map((res) => res.status)).toEqual(Array(10).fill(401));
      await expectModelError(await t.call('GET', api('/nas'), { auth: basicOf(eve, `${eve}-password`) }), 429);
      await expectModelError(await t.call('GET', '/metrics', { auth: basicOf(eve, `${eve}-password`) }), 429);
    });
  });
});
