import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, postgresUnreachable, type TestDatabase } from '@dms/core/testing';

/**
 * Two `dms serve` processes on one PostgreSQL database, as two replicas behind a load
 * balancer (issue 14): what one does, the other sees.
 */
const unreachable = await postgresUnreachable();
if (unreachable && process.env['CI'] === 'true') throw new Error(`CI needs ${unreachable} (install: apt-get install -y postgresql)`);
if (unreachable) console.log(`[skip] two replicas on PostgreSQL: ${unreachable}`);

const cliMain = fileURLToPath(new URL('../cli/main.ts', import.meta.url));
const password = 'two-replicas-password';
const auth = `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;

function startReplica(env: Record<string, string>): { child: ChildProcess; url: Promise<string> } {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', cliMain, 'serve'], {
    env: { ...process.env, DMS_PORT: '0', DMS_ADMIN_PASSWORD: password, DMS_LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = /"url":"([^"]+)"/.exec(out)?.[1];
      if (found) resolve(found);
    });
    child.once('exit', (code) => reject(new Error(`replica exited with ${code} before serving`)));
  });
  return { child, url };
}

describe.skipIf(unreachable !== undefined)('two replicas on one PostgreSQL database', () => {
  let database: TestDatabase;
  let dataDir: string;
  const replicas: Array<{ child: ChildProcess; base: string }> = [];
  const call = async (replica: number, method: string, path: string, body?: unknown, credential = auth) => {
    const res = await fetch(replicas[replica]!.base + path, {
      method,
      headers: { authorization: credential, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (res.status === 204 ? {} : await res.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    // One secret for both (DMS_SECRET_KEY), as replicas must share it; the data dirs are their own.
    const env = { DMS_DATABASE_URL: database.url, DMS_SECRET_KEY: randomBytes(32).toString('hex') };
    dataDir = mkdtempSync(join(tmpdir(), 'dms-replicas-'));
    mkdirSync(join(dataDir, 'shares', 'projects'), { recursive: true });
    for (const name of ['a', 'b']) {
      const started = startReplica({ ...env, DMS_DATA_DIR: join(dataDir, name), DMS_LOCAL_ROOTS: join(dataDir, 'shares') });
      replicas.push({ child: started.child, base: await started.url });
    }
  });
  afterAll(async () => {
    for (const { child } of replicas) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('reads on one replica what the other wrote, and of 20 concurrent same-name creates split across both, exactly one is 201', async () => {
    const created = await call(0, 'POST', '/nas', { name: 'shared', host: 'nas.example', type: 'local' });
    expect(created.status).toBe(201);
    expect((await call(1, 'GET', `/nas/${String(created.body['id'])}`)).body['name']).toBe('shared');
    const attempts = await Promise.all(Array.from({ length: 20 }, (_, i) => call(i % 2, 'POST', '/pools', { name: 'race' })));
    expect(attempts.filter((a) => a.status === 201)).toHaveLength(1);
    expect(attempts.filter((a) => a.status === 409)).toHaveLength(19);
  });

  it('a job started on one replica is followed on the other', async () => {
    const nas = await call(0, 'POST', '/nas', { name: 'jobs-nas', host: 'localhost', type: 'local' });
    const started = await call(0, 'PUT', `/nas/${String(nas.body['id'])}/nas_shares/-/test`, { name: 'probe', path: 'projects' });
    expect(started.status).toBe(202);
    const follow = `/nas/${String(nas.body['id'])}/nas_shares/-/test?job_id=${String(started.body['job_id'])}&wait=10`;
    let job = await call(1, 'GET', follow);
    while (job.status === 202) job = await call(1, 'GET', follow);
    expect(job.body).toMatchObject({ status: 'completed', progress: 2, total: 2 });
  });

  it('a key revoked on one replica is refused by the other within 2 s', async () => {
    const key = await call(0, 'POST', '/api_keys', { name: 'k', api_key_scopes: [{ controller: 'nas', action: 'index' }] });
    const bearer = `Bearer ${String(key.body['key'])}`;
    expect((await call(1, 'GET', '/nas', undefined, bearer)).status).toBe(200);
    expect((await call(0, 'DELETE', `/api_keys/${String(key.body['id'])}`)).status).toBe(204);
    const deadline = Date.now() + 2_000;
    let status = 200;
    while (status === 200 && Date.now() < deadline) status = (await call(1, 'GET', '/nas', undefined, bearer)).status;
    expect(status).toBe(401);
  });
});
