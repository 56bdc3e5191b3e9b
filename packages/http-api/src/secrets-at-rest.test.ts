import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemPrincipal } from '@dms/core';
import { createAesGcmSecretBox, type Core, type Storage } from '@dms/core/runtime';
import { openSqliteStorage } from '@dms/core/sqlite';
import { createShareDriverRegistry } from '@dms/core/drivers';
import { createApp } from './app.js';
import { createLogger } from './http/logger.js';
import { createMemoryRateLimiter } from '@dms/core/memory';
import { createTestApp, type TestApp } from './testing/test-app.js';
import { readJson } from './testing/fixtures.js';
import { wireCore, type WiredCore } from '@dms/core/testing';
import { readConfig } from './server/config.js';
import type { Dms } from '@dms/core/runtime';
import { openForCommand } from './server/open.js';

/**
 * docs/decisions/007-data-at-rest.md, docs/decisions/041-scopes.md: passwords are encrypted at rest and never in a log line. The
 * database is read as bytes (main file, WAL and shared memory) and the log is captured
 * from a real pino logger at the most verbose level. Finding 11 adds the SNMP communities
 * (trap targets, the agent) and the modes of the data dir and the database files.
 */

const sharePassword = 'Sh4re-Pa55-q7ZxWv-unique';
const testPassword = 'T3st-Pa55-k9JmRt-unique';
const changedPassword = 'Ch4nged-Pa55-b2NcYp-unique';
const userPassword = 'Us3r-Pa55-h5GdLs-unique';
const shareName = 'marker-share-x4Fh2';
const trapCommunity = 'Tr4p-Comm-m3QwZs-unique';
const changedTrapCommunity = 'Tr4p-Comm-Ch4nged-p8LkVd-unique';
const agentCommunity = 'Ag3nt-Comm-r6YtNb-unique';
const smtpPassword = 'Smtp-Pa55-w8RtQz-unique';
const ntfyToken = 'tk_Ntfy-T0ken-c5VbXm-unique';

function databaseBytes(file: string): Buffer {
  const parts = [file, `${file}-wal`, `${file}-shm`].filter((path) => existsSync(path)).map((path) => readFileSync(path));
  return Buffer.concat(parts);
}

/** The secret in every encoding a careless implementation could have stored it in. */
function expectAbsent(haystack: Buffer, secret: string, where: string): void {
  for (const needle of [
    Buffer.from(secret, 'utf8'),
    Buffer.from(secret, 'utf16le'),
    Buffer.from(Buffer.from(secret).toString('base64').slice(0, 16)),
    Buffer.from(Buffer.from(secret).toString('hex')),
  ]) {
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
    t = await createTestApp({ dataDir: dir, localRoots: [dir] });
    await t.engine.start();
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

    const started = await t.call('PUT', '/api/v2/nas/vault/nas_shares/-/test', {
      auth: t.basic,
      body: { name: 'probe', path: '.', username: 'svc', password: testPassword },
    });
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
    const savedJobId = (await readJson<{ job_id: string }>(saved)).job_id;
    // A long-poll answers at each change of the job (docs/decisions/124-one-long-poll-loop.md): ask until it is over.
    let savedJob = await t.call('GET', `/api/v2/nas_shares/${share.id}/test?job_id=${savedJobId}&wait=10`, { auth: t.basic });
    for (let asked = 1; savedJob.status === 202 && asked < 20; asked += 1) {
      expect(await savedJob.text()).not.toContain(sharePassword);
      savedJob = await t.call('GET', `/api/v2/nas_shares/${share.id}/test?job_id=${savedJobId}&wait=10`, { auth: t.basic });
    }
    expect(savedJob.status).toBe(200);
    expect(await savedJob.text()).not.toContain(sharePassword);
    expect((await t.call('PUT', `/api/v2/nas/vault/nas_shares/${share.id}`, { auth: t.basic, body: { password: changedPassword } })).status).toBe(200);
    const user = await t.call('POST', '/api/v2/users', { auth: t.basic, body: { username: 'keeper', password: userPassword } });
    expect(user.status).toBe(201);
    const key = await readJson<{ key: string }>(
      await t.call('POST', '/api/v2/api_keys', { auth: t.basic, body: { name: 'k', api_key_scopes: [{ controller: 'nas', action: 'index' }] } }),
    );
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

  it('issue 44: holds no notification channel secret (a webhook signing secret, an SMTP password, an ntfy token)', async () => {
    const post = async (body: unknown) => {
      const res = await t.call('POST', '/api/v2/notification_channels', { auth: t.basic, body });
      expect(res.status, await res.clone().text()).toBe(201);
      return readJson<{ name: string; secret?: string }>(res);
    };
    const hook = await post({ name: 'vault-hook', type: 'webhook', settings: { url: 'https://hooks.example.com/vault' } });
    await post({
      name: 'vault-mail',
      type: 'email',
      settings: { host: 'smtp.example.com', username: 'svc', password: smtpPassword, from: 'd@example.com', to: ['o@example.com'] },
    });
    await post({ name: 'vault-ntfy', type: 'ntfy', settings: { url: 'https://ntfy.example.com/vault', token: ntfyToken } });
    const bytes = databaseBytes(file);
    expect(bytes.includes(Buffer.from('vault-ntfy')), 'the channel name is in the files read').toBe(true);
    expectAbsent(bytes, hook.secret!, 'the database');
    expectAbsent(bytes, smtpPassword, 'the database');
    expectAbsent(bytes, ntfyToken, 'the database');
  });
});

describe('secrets in the log', () => {
  const lines: string[] = [];
  let core: Core;
  let engine: WiredCore['engine'];
  let storage: Storage;
  let dir: string;
  let call: TestApp['call'];
  const adminPassword = 'Adm1n-Pa55-w8RtQe-unique';
  const basic = `Basic ${Buffer.from(`admin:${adminPassword}`).toString('base64')}`;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dms-log-'));
    const secrets = createAesGcmSecretBox(randomBytes(32));
    storage = openSqliteStorage({ file: ':memory:', secrets });
    await storage.migrate();
    const big = createMemoryRateLimiter({ limit: 1_000_000, windowSeconds: 60 });
    ({ core, engine } = wireCore({
      storage,
      secrets,
      drivers: createShareDriverRegistry({ localRoots: [dir] }),
      engine: { pollMs: 20 },
      limits: { perCredential: big, perAddress: big, authFailures: big },
    }));
    await core.users.add({ username: 'admin', password: adminPassword, admin: true });
    const logger = createLogger('trace', { write: (line: string) => void lines.push(line) });
    engine.setErrorHandler((error) => logger.error({ err: error }, 'job engine error'));
    await engine.start();
    const { app } = createApp({ core, logger });
    call = async (method, path, { auth, body, headers = {} } = {}) =>
      app.request(path, {
        method,
        headers: { ...headers, ...(auth ? { authorization: auth } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      });
  });
  afterAll(async () => {
    await engine.stop();
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('never writes a password, a token or an Authorization value', async () => {
    const { key } = await core.apiKeys.create(systemPrincipal, { name: 'logged', api_key_scopes: [{ controller: '*', action: '*' }] });
    const bearer = `Bearer ${key}`;
    const wrongBasic = `Basic ${Buffer.from('admin:Wr0ng-Pa55-unique').toString('base64')}`;
    const secrets = [
      adminPassword,
      sharePassword,
      testPassword,
      changedPassword,
      userPassword,
      'Wr0ng-Pa55-unique',
      key,
      basic,
      bearer,
      wrongBasic,
      basic.slice(6),
      wrongBasic.slice(6),
      trapCommunity,
      changedTrapCommunity,
      agentCommunity,
    ];

    expect((await call('POST', '/api/v2/nas', { auth: basic, body: { name: 'logged', host: 'localhost', type: 'local' } })).status).toBe(201);
    const share = await readJson<{ id: number }>(
      await call('POST', '/api/v2/nas/logged/nas_shares', { auth: bearer, body: { name: 's', path: '.', username: 'svc', password: sharePassword } }),
    );
    expect((await call('GET', `/api/v2/nas_shares/${share.id}`, { auth: basic })).status).toBe(200);
    expect((await call('PUT', `/api/v2/nas_shares/${share.id}`, { auth: basic, body: { password: changedPassword } })).status).toBe(200);
    const started = await readJson<{ job_id: string }>(
      await call('PUT', '/api/v2/nas/logged/nas_shares/-/test', { auth: basic, body: { name: 't', path: 'missing', password: testPassword } }),
    );
    const job = await waitForJob({ call }, basic, 'logged', started.job_id);
    expect(job['status']).toBe('failed');
    expect((await call('POST', '/api/v2/users', { auth: basic, body: { username: 'logged-user', password: userPassword } })).status).toBe(201);
    // Failures: a wrong password, malformed JSON, a validation error, an unknown route.
    expect((await call('GET', '/api/v2/nas', { auth: wrongBasic })).status).toBe(401);
    expect((await call('POST', '/api/v2/nas/logged/nas_shares', { auth: basic, body: `{"name":"x","password":"${sharePassword}"` })).status).toBe(400);
    expect((await call('POST', '/api/v2/nas/logged/nas_shares', { auth: basic, body: { name: '', path: '', password: sharePassword } })).status).toBe(422);
    expect((await call('POST', '/api/v2/nas/logged/nas_shares', { auth: basic, body: { name: 'y', path: 'p', password: 12345 } })).status).toBe(422);
    expect((await call('GET', '/api/v2/nowhere', { auth: bearer })).status).toBe(404);
    // SNMP communities: written, changed, read back, refused as a filter, and rejected in a body.
    const trap = await readJson<{ snmp_trap_id: string }>(
      await call('POST', '/api/v2/snmp/traps', { auth: basic, body: { manager: 'nms.example', community: trapCommunity } }),
    );
    expect((await call('PUT', `/api/v2/snmp/traps/${trap.snmp_trap_id}`, { auth: basic, body: { community: changedTrapCommunity } })).status).toBe(200);
    expect((await call('GET', '/api/v2/snmp/traps', { auth: basic })).status).toBe(200);
    expect((await call('GET', `/api/v2/snmp/traps?community=${changedTrapCommunity}`, { auth: basic })).status).toBe(400);
    expect((await call('PUT', '/api/v2/snmp/server_configuration', { auth: basic, body: { community: agentCommunity } })).status).toBe(200);
    expect((await call('PUT', '/api/v2/snmp/server_configuration', { auth: basic, body: { community: `${agentCommunity}\u0007` } })).status).toBe(422);
    expect((await call('GET', '/api/v2/snmp/server_configuration', { auth: basic })).status).toBe(200);
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

describe('finding 11: never logs an SNMP community', () => {
  it('redacts a community wherever a caller puts it in a log object', () => {
    const lines: string[] = [];
    const logger = createLogger('trace', { write: (line: string) => void lines.push(line) });
    logger.warn(
      { community: trapCommunity, trap: { id: 1, manager: 'nms', community: changedTrapCommunity }, config: { community: agentCommunity } },
      'SNMP trap not sent',
    );
    expect(lines).toHaveLength(1);
    for (const secret of [trapCommunity, changedTrapCommunity, agentCommunity]) expect(lines[0]).not.toContain(secret);
    expect(lines[0]).toContain('"manager":"nms"');
  });
});

/** As `dms serve` and every CLI command open the data dir: openDms, with a SecretBox from the key. */
describe('finding 11: SNMP communities sealed and files private in the data dir', () => {
  let root: string;
  const password = 'Runt1me-Pa55-unique';
  const auth = `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;
  const mode = (path: string) => statSync(path).mode & 0o777;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'dms-runtime-'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  async function start(dataDir: string, warnings: string[] = []): Promise<{ runtime: Dms & { storage: Storage }; call: TestApp['call'] }> {
    const log = { info: () => {}, error: () => {}, warn: (_fields: object, message: string) => void warnings.push(message) };
    const dms = await openForCommand(readConfig({ DMS_DATA_DIR: dataDir }), { createDatabase: true, log });
    // The dispatcher's view: the raw store, opened as the runtime opens it (with its SecretBox).
    const storage = openSqliteStorage({
      file: join(dataDir, 'dms.sqlite'),
      secrets: createAesGcmSecretBox(Buffer.from(readFileSync(join(dataDir, 'secret.key'), 'utf8').trim(), 'hex')),
    });
    const closeDms = dms.close;
    const runtime = {
      ...dms,
      storage,
      close: async () => {
        await storage.close();
        await closeDms();
      },
    };
    await runtime.core.users.ensureAdmin(password);
    const { app } = createApp({ core: runtime.core, logger: createLogger('silent') });
    const call: TestApp['call'] = async (method, path, { body } = {}) =>
      app.request(path, {
        method,
        headers: { authorization: auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    return { runtime, call };
  }

  it('finding 11: holds no trap or agent community, with the data dir 0700 and dms.sqlite, -wal and -shm 0600', async () => {
    const dataDir = join(root, 'fresh', 'data');
    const file = join(dataDir, 'dms.sqlite');
    const warnings: string[] = [];
    const { runtime, call } = await start(dataDir, warnings);
    try {
      const created = await call('POST', '/api/v2/snmp/traps', { body: { manager: 'nms.example', community: trapCommunity } });
      expect(created.status).toBe(201);
      const trap = await readJson<{ snmp_trap_id: string; community: string }>(created);
      expect(trap.community).toBe(trapCommunity);
      await call('POST', '/api/v2/snmp/traps', { body: { manager: 'backup.example', community: changedTrapCommunity } });
      expect((await call('PUT', '/api/v2/snmp/server_configuration', { body: { community: agentCommunity, location: 'rack 9' } })).status).toBe(200);

      // Callers who may read them still get them in clear, as before.
      const listed = await readJson<{ traps: Array<{ community: string }> }>(await call('GET', '/api/v2/snmp/traps'));
      expect(listed.traps.map((t) => t.community)).toEqual([trapCommunity, changedTrapCommunity]);
      expect((await readJson<{ community: string }>(await call('GET', `/api/v2/snmp/traps/${trap.snmp_trap_id}`))).community).toBe(trapCommunity);
      expect(await readJson<Record<string, string>>(await call('GET', '/api/v2/snmp/server_configuration'))).toMatchObject({
        version: 'v2c',
        community: agentCommunity,
        location: 'rack 9',
        contact: '',
      });
      // …and so does the trap dispatcher, which reads the store directly.
      expect((await runtime.storage.traps.listActive()).map((t) => t.community)).toEqual([trapCommunity, changedTrapCommunity]);
      // The community can be neither a filter nor a sort key: a sealed column, and a filter on a secret is an oracle.
      expect((await call('GET', `/api/v2/snmp/traps?community=${trapCommunity}`)).status).toBe(400);
      expect((await call('GET', '/api/v2/snmp/traps?sort_by=community')).status).toBe(400);

      const bytes = databaseBytes(file);
      expect(bytes.includes(Buffer.from('backup.example')), 'the trap rows are in the files read').toBe(true);
      expectAbsent(bytes, trapCommunity, 'the database');
      expectAbsent(bytes, changedTrapCommunity, 'the database');
      expectAbsent(bytes, agentCommunity, 'the database');

      expect(mode(join(root, 'fresh')), 'a parent dms created').toBe(0o700);
      expect(mode(dataDir), 'the data dir').toBe(0o700);
      for (const path of [file, `${file}-wal`, `${file}-shm`]) {
        expect(existsSync(path), `${path} exists`).toBe(true);
        expect(mode(path), path).toBe(0o600);
      }
      expect(mode(join(dataDir, 'secret.key'))).toBe(0o600);
      expect(warnings).toEqual([]);
    } finally {
      await runtime.close();
    }
  });

  it('finding 11: seals the clear communities of an earlier version at the first start, and serves them in clear', async () => {
    const dataDir = join(root, 'legacy');
    mkdirSync(dataDir, { mode: 0o700 });
    const file = join(dataDir, 'dms.sqlite');
    const earlier = openSqliteStorage({ file });
    await earlier.migrate();
    await earlier.traps.create({ activation: 1, version: 'v2c', manager: 'nms.example', community: trapCommunity, severity_low: 1, severity_high: 5 });
    await earlier.snmpConfig.update({ community: agentCommunity });
    await earlier.close();
    expect(databaseBytes(file).includes(Buffer.from(trapCommunity)), 'the earlier version stored it in clear').toBe(true);

    const { runtime, call } = await start(dataDir);
    try {
      const listed = await readJson<{ traps: Array<{ community: string }> }>(await call('GET', '/api/v2/snmp/traps'));
      expect(listed.traps.map((t) => t.community)).toEqual([trapCommunity]);
      expect((await readJson<{ community: string }>(await call('GET', '/api/v2/snmp/server_configuration'))).community).toBe(agentCommunity);
      const bytes = databaseBytes(file);
      expectAbsent(bytes, trapCommunity, 'the resealed database');
      expectAbsent(bytes, agentCommunity, 'the resealed database');
    } finally {
      await runtime.close();
    }
  });

  it('finding 11: warns about an existing data dir open to others and leaves its mode to the operator', async () => {
    const dataDir = join(root, 'shared');
    mkdirSync(dataDir);
    chmodSync(dataDir, 0o755);
    const warnings: string[] = [];
    const { runtime } = await start(dataDir, warnings);
    await runtime.close();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/data dir .*shared is open to other users \(mode 755\)/);
    expect(mode(dataDir)).toBe(0o755);
    for (const path of [join(dataDir, 'dms.sqlite'), join(dataDir, 'secret.key')]) expect(mode(path), path).toBe(0o600);
  });
});
