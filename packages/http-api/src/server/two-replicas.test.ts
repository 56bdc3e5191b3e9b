import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, postgresUnreachable, requireTools, type TestDatabase } from '@dms/core/testing';

/**
 * Two `dms serve` processes on one PostgreSQL database, as two replicas behind a load
 * balancer (issue 14): what one does, the other sees.
 */
const unreachable = await postgresUnreachable();
if (unreachable && process.env['CI'] === 'true') throw new Error(`CI needs ${unreachable} (install: apt-get install -y postgresql)`);
if (unreachable) console.log(`[skip] two replicas on PostgreSQL: ${unreachable}`);

const cliMain = fileURLToPath(new URL('../../../cli/src/main.ts', import.meta.url));
const password = 'two-replicas-password';
const auth = `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;

interface StartedReplica {
  child: ChildProcess;
  url: Promise<string>;
  /** The `worker_id` its job engine marks claimed jobs with. */
  workerId: Promise<string>;
}

function startReplica(env: Record<string, string>): StartedReplica {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', cliMain, 'serve'], {
    env: { ...process.env, DMS_PORT: '0', DMS_ADMIN_PASSWORD: password, DMS_LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const logged = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const look = () => {
        const found = pattern.exec(out)?.[1];
        if (found) (child.stdout!.off('data', look), resolve(found));
      };
      child.stdout!.on('data', look);
      child.once('exit', (code) => reject(new Error(`replica exited with ${code} before logging ${pattern}`)));
    });
  return { child, url: logged(/"url":"([^"]+)"/), workerId: logged(/"worker_id":"([^"]+)"/) };
}

/** A TCP peer that accepts and never answers: an SMB test against it stays working until its timeout. */
async function silentPeer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => (sockets.add(socket), socket.on('error', () => {})));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => (sockets.forEach((socket) => socket.destroy()), server.close(() => resolve()))),
  };
}

describe.skipIf(unreachable !== undefined)('two replicas on one PostgreSQL database', () => {
  let database: TestDatabase;
  let dataDir: string;
  const replicas: Array<{ child: ChildProcess; base: string; workerId: string }> = [];
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
      replicas.push({ child: started.child, base: await started.url, workerId: await started.workerId });
    }
  });
  afterAll(async () => {
    for (const { child } of replicas) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
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

  it("/metrics: a share renamed, its NAS and pool renamed, out of its pool, deleted on one replica: the other's next scrape says so", async () => {
    const key = await call(0, 'POST', '/api_keys', { name: 'prometheus', api_key_scopes: [{ controller: 'metrics', action: 'index' }] });
    const scrape = async (replica: number) => {
      const res = await fetch(new URL('/metrics', replicas[replica]!.base), {
        headers: { authorization: `Bearer ${String(key.body['key'])}`, 'accept-encoding': 'gzip' },
      });
      expect(res.status).toBe(200);
      return res.text();
    };
    const nas = await call(0, 'POST', '/nas', { name: 'metrics-nas', host: 'localhost', type: 'local' });
    const pool = await call(0, 'POST', '/pools', { name: 'metrics-pool' });
    const share = await call(0, 'POST', `/nas/${String(nas.body['id'])}/nas_shares`, { name: 'metrics-share', path: 'projects' });
    const id = String(share.body['id']);
    expect((await call(0, 'PUT', `/pools/${String(pool.body['id'])}`, { nas_share_ids: [share.body['id']] })).status).toBe(200);
    // Tested: the share has series (healthy, capacity) from then on.
    const started = await call(0, 'PUT', `/nas_shares/${id}/test`);
    while ((await call(1, 'GET', `/jobs/${String(started.body['job_id'])}?wait=10`)).status === 202);
    const healthy = (text: string) => text.split('\n').filter((line) => line.startsWith(`dms_share_healthy{share_id="${id}",`));
    for (const replica of [0, 1])
      expect(healthy(await scrape(replica))).toEqual([`dms_share_healthy{share_id="${id}",share="metrics-share",nas="metrics-nas",pool="metrics-pool"} 1`]);
    expect((await call(0, 'PUT', `/nas_shares/${id}`, { name: 'metrics-share-2' })).status).toBe(200);
    expect((await call(0, 'PUT', `/nas/${String(nas.body['id'])}`, { name: 'metrics-nas-2' })).status).toBe(200);
    expect((await call(0, 'PUT', `/pools/${String(pool.body['id'])}`, { name: 'metrics-pool-2' })).status).toBe(200);
    expect(healthy(await scrape(1))).toEqual([`dms_share_healthy{share_id="${id}",share="metrics-share-2",nas="metrics-nas-2",pool="metrics-pool-2"} 1`]);
    expect((await call(0, 'PUT', `/pools/${String(pool.body['id'])}`, { nas_share_ids: [] })).status).toBe(200);
    expect(healthy(await scrape(1))).toEqual([`dms_share_healthy{share_id="${id}",share="metrics-share-2",nas="metrics-nas-2",pool=""} 1`]);
    expect((await call(0, 'DELETE', `/nas_shares/${id}`)).status).toBe(204);
    expect(await scrape(1)).not.toContain(`share_id="${id}"`);
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

  // Last: it kills a replica. The job it kills is an SMB test (smbclient against a peer that never answers).
  const smbclient = requireTools(['smbclient'], 'apt-get install -y smbclient');
  it.skipIf(!smbclient.ok)(
    'a replica SIGKILLed during a job: the other fails the job "interrupted" once its heartbeat is stale (3 x 2 s)',
    async () => {
      const peer = await silentPeer();
      try {
        const nas = await call(0, 'POST', '/nas', { name: 'silent-nas', host: '127.0.0.1', type: 'smb_v3' });
        const started = await call(0, 'PUT', `/nas/${String(nas.body['id'])}/nas_shares/-/test`, {
          name: 'hangs',
          path: 'share',
          options: `port=${peer.port}`,
        });
        expect(started.status).toBe(202);
        const jobId = String(started.body['job_id']);
        const running = async () =>
          (await database.query<{ status: string; worker_id: string | null }>('select status, worker_id from jobs where id = $1', [jobId]))[0];
        await expect.poll(async () => (await running())?.status, { timeout: 5_000 }).toBe('working');
        const workerId = (await running())?.worker_id;
        const runner = replicas.findIndex((replica) => replica.workerId === workerId);
        expect(runner).toBeGreaterThanOrEqual(0);
        const survivor = 1 - runner;
        const killed = new Promise((resolve) => replicas[runner]!.child.once('exit', resolve));
        const killedAt = Date.now();
        replicas[runner]!.child.kill('SIGKILL');
        await killed;

        const follow = `/nas/${String(nas.body['id'])}/nas_shares/-/test?job_id=${jobId}&wait=10`;
        let job = await call(survivor, 'GET', follow);
        while (job.status === 202 && Date.now() - killedAt < 20_000) job = await call(survivor, 'GET', follow);
        expect(job.body).toMatchObject({ status: 'failed', message: 'interrupted' });
        // Not before the heartbeat went stale (3 x 2 s after the last one the dead replica saved).
        expect(Date.now() - killedAt).toBeGreaterThanOrEqual(4_000);
        expect((await running())?.status).toBe('failed');
      } finally {
        await peer.close();
      }
    },
    40_000,
  );
});
