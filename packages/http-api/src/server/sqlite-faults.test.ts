import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { holdSqliteWriteLock, requireTools } from '@dms/core/testing';

/**
 * Issue 21 (faults) through a real `dms serve` process on SQLite: another process holding the
 * write lock (the `sqlite3` CLI), and the database deleted under it.
 */
const tools = requireTools(['sqlite3'], 'apt-get install -y sqlite3');
const cliMain = fileURLToPath(new URL('../../../cli/src/main.ts', import.meta.url));
const password = 'sqlite-faults-password';
const auth = `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;

interface Server {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

function spawnDms(dataDir: string): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', cliMain, 'serve'], {
    env: { ...process.env, DMS_DATA_DIR: dataDir, DMS_PORT: '0', DMS_ADMIN_PASSWORD: password, DMS_LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output, exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))) };
}

async function startDms(dataDir: string): Promise<Server> {
  const started = spawnDms(dataDir);
  const url = await new Promise<string>((resolve, reject) => {
    const look = () => {
      const found = /"url":"(http:\/\/[^"]+?)\/api\/v2"/.exec(started.output())?.[1];
      if (found) return resolve(found);
      if (started.child.exitCode !== null) return reject(new Error(`dms exited before serving: ${started.output()}`));
      setTimeout(look, 20);
    };
    look();
  });
  return { ...started, url };
}

async function timed(url: string, init: RequestInit = {}): Promise<{ status: number; ms: number; headers: Headers; body: string }> {
  const started = performance.now();
  const response = await fetch(url, init);
  const body = await response.text();
  return { status: response.status, ms: performance.now() - started, headers: response.headers, body };
}

const createNas = (server: Server, name: string) =>
  timed(`${server.url}/api/v2/nas`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: JSON.stringify({ name, host: 'nas.example', type: 'local' }),
  });

/** Resolves when `condition` holds, checking every 20 ms; fails after `withinMs`. */
async function until(condition: () => Promise<boolean> | boolean, withinMs: number): Promise<void> {
  const deadline = performance.now() + withinMs;
  while (!(await condition())) {
    if (performance.now() > deadline) throw new Error(`condition not met within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.skipIf(!tools.ok)('issue 21: dms serve on SQLite under storage faults', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const serve = async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dms-faults-serve-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const server = await startDms(dataDir);
    cleanups.push(async () => {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
      await server.exited;
    });
    return { dataDir, server };
  };

  it('item 21.1: while a sqlite3 shell holds the write lock, /healthz and reads answer at once, a write answers 503 with Retry-After within its bound, and the service recovers by itself', async () => {
    const { dataDir, server } = await serve();
    const created = await createNas(server, 'before');
    expect(created.status, created.body).toBe(201);
    const id = (JSON.parse(created.body) as { id: number }).id;

    const holder = await holdSqliteWriteLock(tools.paths['sqlite3']!, join(dataDir, 'dms.sqlite'));
    cleanups.push(() => holder.release());
    const write = createNas(server, 'during');
    const health: number[] = [];
    const reads: number[] = [];
    for (let i = 0; i < 10; i++) {
      const healthz = await timed(`${server.url}/healthz`);
      expect(healthz.status).toBe(200);
      health.push(healthz.ms);
      const read = await timed(`${server.url}/api/v2/nas/${id}`, { headers: { authorization: auth } });
      expect(read.status).toBe(200);
      reads.push(read.ms);
    }
    const refused = await write;
    expect(refused.status, refused.body).toBe(503);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.ms).toBeLessThan(3000);
    expect(Math.max(...health), `healthz ${health.map(Math.round).join(',')} ms`).toBeLessThan(100);
    expect(Math.max(...reads), `reads ${reads.map(Math.round).join(',')} ms`).toBeLessThan(100);
    expect((await timed(`${server.url}/readyz`)).status).toBe(503);

    await holder.release();
    await until(async () => (await timed(`${server.url}/readyz`)).status === 200, 3000);
    expect((await createNas(server, 'after')).status).toBe(201);
  });

  it('item 21.2: after rm dms.sqlite* under the server, writes and /readyz answer 503 and the log says so; a restart refuses to start on a new empty database', async () => {
    const { dataDir, server } = await serve();
    for (let i = 0; i < 20; i++) expect((await createNas(server, `nas-${i}`)).status).toBe(201);
    for (const name of readdirSync(dataDir)) if (name.startsWith('dms.sqlite')) rmSync(join(dataDir, name));

    await until(async () => (await createNas(server, 'after-rm')).status === 503, 3000);
    const readyz = await timed(`${server.url}/readyz`);
    expect(readyz.status).toBe(503);
    expect(readyz.body).toContain('was deleted');
    // Log lines go out in batches (within 100 ms): waited for, not read at once.
    await until(() => /"level":50.*dms\.sqlite was deleted while dms had it open/.test(server.output()), 2000);
    await until(() => server.output().includes('saved the open database to'), 5000);

    server.child.kill('SIGTERM');
    await server.exited;
    const restarted = spawnDms(dataDir);
    expect(await restarted.exited).toBe(1);
    expect(restarted.output()).toMatch(/has held a dms database .*Restore .*dms\.sqlite.*rescued.*dms migrate --init/);
    expect(readdirSync(dataDir).filter((name) => name.startsWith('dms.sqlite') && !name.includes('rescued'))).toEqual([]);
  });
});
