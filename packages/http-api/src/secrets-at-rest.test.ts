import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAesGcmSecretBox, createCore, systemPrincipal, type Core, type Storage } from '@dms/core';
import { openSqliteStorage } from '@dms/core/sqlite';
import { createShareDriverRegistry } from '@dms/core/drivers';
import { createApp } from './app.js';
import { createLogger } from './http/logger.js';
import { createMemoryRateLimiter } from './rate-limit/memory-rate-limiter.js';
import { createTestApp, type TestApp } from './testing/test-app.js';
import { readJson } from './testing/fixtures.js';

/**
 * DESIGN §5.5 and §6: passwords are encrypted at rest and never in a log line. The
 * database is read as bytes (main file, WAL and shared memory) and the log is captured
 * from a real pino logger at the most verbose level.
 */

const sharePassword = 'Sh4re-Pa55-q7ZxWv-unique';
const testPassword = 'T3st-Pa55-k9JmRt-unique';
const changedPassword = 'Ch4nged-Pa55-b2NcYp-unique';
const userPassword = 'Us3r-Pa55-h5GdLs-unique';
const shareName = 'marker-share-x4Fh2';

function databaseBytes(file: string): Buffer {
  const parts = [file, `${file}-wal`, `${file}-shm`].filter((path) => existsSync(path)).map((path) => readFileSync(path));
  return Buffer.concat(parts);
}

/** The secret in every encoding a careless implementation could have stored it in. */
function expectAbsent(haystack: Buffer, secret: string, where: string): void {
  for (const needle of [Buffer.from(secret, 'utf8'), Buffer.from(secret, 'utf16le'), Buffer.from(Buffer.from(secret).toString('base64').slice(0, 16)), Buffer.from(Buffer.from(secret).toString('hex'))]) {
    expect(haystack.includes(needle), `${where} holds ${secret} as ${needle.toString('latin1')}`).toBe(false);
  }
}

async function waitForJob(t: { call: TestApp['call'] }, auth: string, nas: string, jobId: string): Promise<Record<string, unknown>> {
  const res = await t.call('GET', `/api/v2/nas/${nas}/nas_shares/-/test?job_id=${jobId}&wait=10`, { auth });
  expect(res.status).toBe(200);
  return readJson<Record<string, unknown>>(res);
}

describe('secrets in the SQLite file', () => {
  let dir: string;
  let file: string;
  let t: TestApp;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dms-secrets-'));
    file = join(dir, 'dms.sqlite');
    t = await createTestApp({ file, localRoots: [dir] });
    await t.core.engine.start();
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('holds neither share passwords, a test job password, a user password nor an API key', async () => {
    expect((await t.call('POST', '/api/v2/nas', { auth: t.basic, body: { name: 'vault', host: 'localhost', type: 'local' } })).status).toBe(201);
    const created = await t.call('POST', '/api/v2/nas/vault/nas_shares', {
      auth: t.basic,
      body: { name: shareName, path: '.', username: 'svc', password: sharePassword },
    });
    expect(created.status).toBe(201);
    const share = await readJson<{ id: number; password: string }>(created);
    expect(share.password).toBe(sharePassword);

    const started = await t.call('PUT', '/api/v2/nas/vault/nas_shares/-/test', { auth: t.basic, body: { name: 'probe', path: '.', username: 'svc', password: testPassword } });
    expect(started.status).toBe(202);
    const { job_id: jobId } = await readJson<{ job_id: string }>(started);
    const job = await waitForJob(t, t.basic, 'vault', jobId);
    expect(['completed', 'failed']).toContain(job['status']);
    expect(JSON.stringify(job)).not.toContain(testPassword);
    // The sealed payload is erased once the job is over.
    expect((await t.storage.jobs.get(jobId))?.payload_enc).toBeNull();

    // A test of the saved share and a password change write the secret paths once more.
    const saved = await t.call('PUT', `/api/v2/nas_shares/${share.id}/test`, { auth: t.basic });
    expect(saved.status).toBe(202);
    const savedJob = await t.call('GET', `/api/v2/nas_shares/${share.id}/test?job_id=${(await readJson<{ job_id: string }>(saved)).job_id}&wait=10`, { auth: t.basic });
    expect(savedJob.status).toBe(200);
    expect(await savedJob.text()).not.toContain(sharePassword);
    expect((await t.call('PUT', `/api/v2/nas/vault/nas_shares/${share.id}`, { auth: t.basic, body: { password: changedPassword } })).status).toBe(200);
    const user = await t.call('POST', '/api/v2/users', { auth: t.basic, body: { username: 'keeper', password: userPassword } });
    expect(user.status).toBe(201);
    const key = await readJson<{ key: string }>(await t.call('POST', '/api/v2/api_keys', { auth: t.basic, body: { name: 'k', api_key_scopes: [{ controller: 'nas', action: 'index' }] } }));
    expect((await t.call('GET', '/api/v2/nas', { auth: `Bearer ${key.key}` })).status).toBe(200);

    // Still readable through the API: the bytes below are the real, current database.
    const shown = await readJson<{ password: string }>(await t.call('GET', `/api/v2/nas/vault/nas_shares/${share.id}`, { auth: t.basic }));
    expect(shown.password).toBe(changedPassword);

    const bytes = databaseBytes(file);
    expect(existsSync(`${file}-wal`)).toBe(true);
    expect(bytes.includes(Buffer.from(shareName)), 'the share name is in the files read').toBe(true);
    expectAbsent(bytes, sharePassword, 'the database');
    expectAbsent(bytes, testPassword, 'the database');
    expectAbsent(bytes, changedPassword, 'the database');
    expectAbsent(bytes, userPassword, 'the database');
    expectAbsent(bytes, key.key, 'the database');
  });
});

describe('secrets in the log', () => {
  const lines: string[] = [];
  let core: Core;
  let storage: Storage;
  let dir: string;
  let call: TestApp['call'];
  const adminPassword = 'Adm1n-Pa55-w8RtQe-unique';
  const basic = `Basic ${Buffer.from(`admin:${adminPassword}`).toString('base64')}`;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dms-log-'));
    storage = openSqliteStorage({ file: ':memory:' });
    await storage.migrate();
    core = createCore({
      storage,
      secrets: createAesGcmSecretBox(randomBytes(32)),
      drivers: createShareDriverRegistry({ localRoots: [dir] }),
      engine: { pollMs: 20 },
    });
    await core.users.add({ username: 'admin', password: adminPassword, admin: true });
    const logger = createLogger('trace', { write: (line: string) => void lines.push(line) });
    core.engine.setErrorHandler((error) => logger.error({ err: error }, 'job engine error'));
    await core.engine.start();
    const big = createMemoryRateLimiter({ limit: 1_000_000, windowSeconds: 60 });
    const { app } = createApp({ core, logger, limits: { perCredential: big, perAddress: big, authFailures: big } });
    call = async (method, path, { auth, body, headers = {} } = {}) =>
      app.request(path, {
        method,
        headers: { ...headers, ...(auth ? { authorization: auth } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      });
  });
  afterAll(async () => {
    await core.engine.stop();
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('never writes a password, a token or an Authorization value', async () => {
    const { key } = await core.apiKeys.create(systemPrincipal, { name: 'logged', api_key_scopes: [{ controller: '*', action: '*' }] });
    const bearer = `Bearer ${key}`;
    const wrongBasic = `Basic ${Buffer.from('admin:Wr0ng-Pa55-unique').toString('base64')}`;
    const secrets = [adminPassword, sharePassword, testPassword, changedPassword, userPassword, 'Wr0ng-Pa55-unique', key, basic, bearer, wrongBasic, basic.slice(6), wrongBasic.slice(6)];

    expect((await call('POST', '/api/v2/nas', { auth: basic, body: { name: 'logged', host: 'localhost', type: 'local' } })).status).toBe(201);
    const share = await readJson<{ id: number }>(await call('POST', '/api/v2/nas/logged/nas_shares', { auth: bearer, body: { name: 's', path: '.', username: 'svc', password: sharePassword } }));
    expect((await call('GET', `/api/v2/nas_shares/${share.id}`, { auth: basic })).status).toBe(200);
    expect((await call('PUT', `/api/v2/nas_shares/${share.id}`, { auth: basic, body: { password: changedPassword } })).status).toBe(200);
    const started = await readJson<{ job_id: string }>(await call('PUT', '/api/v2/nas/logged/nas_shares/-/test', { auth: basic, body: { name: 't', path: 'missing', password: testPassword } }));
    const job = await waitForJob({ call }, basic, 'logged', started.job_id);
    expect(job['status']).toBe('failed');
    expect((await call('POST', '/api/v2/users', { auth: basic, body: { username: 'logged-user', password: userPassword } })).status).toBe(201);
    // Failures: a wrong password, malformed JSON, a validation error, an unknown route.
    expect((await call('GET', '/api/v2/nas', { auth: wrongBasic })).status).toBe(401);
    expect((await call('POST', '/api/v2/nas/logged/nas_shares', { auth: basic, body: `{"name":"x","password":"${sharePassword}"` })).status).toBe(400);
    expect((await call('POST', '/api/v2/nas/logged/nas_shares', { auth: basic, body: { name: '', path: '', password: sharePassword } })).status).toBe(422);
    expect((await call('POST', '/api/v2/nas/logged/nas_shares', { auth: basic, body: { name: 'y', path: 'p', password: 12345 } })).status).toBe(422);
    expect((await call('GET', '/api/v2/nowhere', { auth: bearer })).status).toBe(404);
    // JWT login with the password in the body, then the token.
    expect((await call('PUT', '/api/v2/settings', { auth: basic, body: { jwt_enabled: true } })).status).toBe(200);
    expect((await call('POST', '/api/v2/auth/login', { body: { username: 'admin', password: 'Wr0ng-Pa55-unique' } })).status).toBe(401);
    const { token } = await readJson<{ token: string }>(await call('POST', '/api/v2/auth/login', { body: { username: 'admin', password: adminPassword } }));
    secrets.push(token, `Bearer ${token}`);
    expect((await call('GET', '/metrics', { auth: `Bearer ${token}` })).status).toBe(200);
    expect((await call('GET', '/api/v2/nas', { auth: `Bearer ${token}x` })).status).toBe(401);

    const log = lines.join('');
    // The log is really captured: one line per request with its path and status.
    expect(lines.length).toBeGreaterThanOrEqual(16);
    expect(log).toContain('"path":"/api/v2/auth/login"');
    expect(log).toContain('"status":401');
    for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
    for (const secret of secrets) expect(log.includes(secret), `the log holds ${secret}`).toBe(false);
    expect(log).not.toMatch(/authorization/i);
  });

  it('logs each request under the id it answers with in X-Request-Id', async () => {
    const given = await call('GET', '/api/v2/nas', { auth: basic, headers: { 'x-request-id': 'trace-me.42' } });
    const generated = await call('GET', '/api/v2/nowhere', { auth: basic });
    for (const response of [given, generated]) {
      const id = response.headers.get('x-request-id');
      expect(id).toBeTruthy();
      const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry['msg'] === 'request' && entry['req_id'] === id);
      expect(entries).toHaveLength(1);
      expect(entries[0]?.['status']).toBe(response.status);
    }
    expect(given.headers.get('x-request-id')).toBe('trace-me.42');
  });
});
