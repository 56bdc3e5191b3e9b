import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

/** `dms serve` as an operator runs it: its own process, from the CLI's source. */
const cliMain = fileURLToPath(new URL('../../../cli/src/main.ts', import.meta.url));
const password = 'two-servers-password';
const auth = `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;

interface Started {
  child: ChildProcess;
  stderr: () => string;
  exited: Promise<number | null>;
}

function startDms(dataDir: string, env: Record<string, string> = {}): Started {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', cliMain, 'serve'], {
    env: { ...process.env, DMS_DATA_DIR: dataDir, DMS_PORT: '0', DMS_ADMIN_PASSWORD: password, DMS_LOG_LEVEL: 'info', DMS_DRIVER_TIMEOUT_MS: '60000', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return { child, stderr: () => stderr, exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))) };
}

/** The URL from the "dms serving" log line. */
function servingUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /"url":"([^"]+)"/.exec(out)?.[1];
      if (url) resolve(url);
    });
    child.once('exit', (code) => reject(new Error(`dms exited with ${code} before serving`)));
  });
}

describe('one running server per data dir', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it("a second dms serve on a data dir in use exits non-zero naming it, and the first one's job runs on undisturbed", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dms-two-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    // A share host that accepts the connection and never answers: the test job stays working.
    const held: Socket[] = [];
    const silent: Server = createServer((socket) => void held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => silent.close(() => resolve())));
    const silentPort = (silent.address() as { port: number }).port;

    const first = startDms(dataDir);
    cleanups.push(async () => {
      first.child.kill('SIGTERM');
      await first.exited;
    });
    const url = await servingUrl(first.child);
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(url + path, {
        method,
        headers: { authorization: auth, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const nas = await call('POST', '/nas', { name: 'slow', host: '127.0.0.1', type: 'nfs_v4' });
    expect(nas.status).toBe(201);
    const started = await call('PUT', `/nas/${String(nas.body['id'])}/nas_shares/-/test`, { name: 'probe', path: '/export', options: `port=${silentPort}` });
    expect(started.status).toBe(202);
    const jobPath = `/nas/${String(nas.body['id'])}/nas_shares/-/test?job_id=${String(started.body['job_id'])}`;
    while ((await call('GET', `${jobPath}&wait=5`)).body['status'] !== 'working');
    while (held.length === 0) await new Promise((resolve) => setImmediate(resolve));

    const second = startDms(dataDir);
    const code = await second.exited;
    expect(code).not.toBe(0);
    expect(second.stderr()).toContain(`data dir ${dataDir} is in use by process ${first.child.pid}`);

    // The first still owns its job: not failed as "interrupted" by the second.
    expect((await call('GET', jobPath)).body['status']).toBe('working');
    for (const socket of held) socket.destroy();
    let job = await call('GET', `${jobPath}&wait=10`);
    while (job.status === 202) job = await call('GET', `${jobPath}&wait=10`);
    expect(job.body['status']).toBe('failed');
    expect(String(job.body['message'])).not.toContain('interrupted');
  });

  it('a port in use exits non-zero at once, naming DMS_PORT', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dms-port-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => taken.close(() => resolve())));
    const started = startDms(dataDir, { DMS_PORT: String((taken.address() as { port: number }).port) });
    expect(await started.exited).toBe(1);
    expect(started.stderr()).toContain('the port is in use');
    expect(started.stderr()).toContain('DMS_PORT');
  });
});
