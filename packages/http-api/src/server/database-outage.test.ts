import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemPrincipal } from '@dms/core';
import { openDms, type Dms } from '@dms/core/runtime';
import { createTestDatabase, postgresUnreachable, testServerUrl, type TestDatabase } from '@dms/core/testing';
import { createApp } from '../app.js';
import { createLogger } from '../http/logger.js';

/**
 * PostgreSQL going away under load and coming back (issue 14): requests answer 503 with
 * Retry-After, never 500; /readyz fails; once the database is back, the same process serves
 * again, and its LISTEN channel is back too (a revocation on another replica reaches it).
 *
 * The outage is a TCP proxy between the replica and the server that drops every connection and
 * refuses new ones, then accepts again: what a restart looks like from dms (connections cut,
 * then refused), without restarting the server other suites use at the same time.
 */
const unreachable = await postgresUnreachable();
if (unreachable && process.env['CI'] === 'true') throw new Error(`CI needs ${unreachable}`);
if (unreachable) console.log(`[skip] PostgreSQL outage: ${unreachable}`);

interface CuttableProxy {
  port: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

async function cuttableProxy(target: { host: string; port: number }): Promise<CuttableProxy> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => (sockets.add(socket), socket.once('close', () => sockets.delete(socket)), socket.on('error', () => {}));
  let server: Server | undefined;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        track(client);
        const upstream = track(connect(target.port, target.host));
        client.pipe(upstream).pipe(client);
        client.once('close', () => upstream.destroy());
        upstream.once('close', () => client.destroy());
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as AddressInfo).port;
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server!.close(() => resolve());
    });
  await listen();
  return { port, cut: stop, restore: listen, close: stop };
}

describe.skipIf(unreachable !== undefined)('PostgreSQL unreachable, then back', () => {
  let database: TestDatabase;
  let proxy: CuttableProxy;
  let dataDir: string;
  let throughProxy: Dms;
  let direct: Dms;
  let app: ReturnType<typeof createApp>['app'];
  const password = 'outage-admin-password';
  const basic = `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;
  const get = async (path: string, auth = basic) => {
    const res = await app.request(path, { headers: { authorization: auth } });
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.text() };
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    const server = new URL(testServerUrl);
    proxy = await cuttableProxy({ host: server.hostname, port: Number(server.port || 5432) });
    const viaProxy = new URL(database.url);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    dataDir = mkdtempSync(join(tmpdir(), 'dms-outage-'));
    const common = {
      role: 'service' as const,
      adminPassword: password,
      secretKey: randomBytes(32).toString('hex'),
      trapSender: { send: async () => {}, close() {} },
      jobPollMs: 20,
    };
    direct = await openDms({ ...common, dataDir: join(dataDir, 'direct'), databaseUrl: database.url });
    throughProxy = await openDms({ ...common, dataDir: join(dataDir, 'proxied'), databaseUrl: viaProxy.toString() });
    app = createApp({ core: throughProxy.core, logger: createLogger('silent') }).app;
  });
  afterAll(async () => {
    await throughProxy?.close();
    await direct?.close();
    await proxy?.close().catch(() => {});
    await database?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 503 with Retry-After (never 500) while it is gone, and serves again without a restart', async () => {
    expect((await get('/readyz')).status).toBe(200);
    const { key, id: keyId } = await direct.core.apiKeys.create(systemPrincipal, { name: 'outage', api_key_scopes: [{ controller: 'nas', action: 'index' }] });
    const bearer = `Bearer ${key}`;
    expect((await get('/api/v2/nas', bearer)).status).toBe(200);

    // Load: four clients in closed loops for the whole test.
    const seen: Array<{ status: number; retryAfter: string | null }> = [];
    let loading = true;
    const clients = Array.from({ length: 4 }, async () => {
      while (loading) seen.push(await get('/api/v2/nas_shares'));
    });

    await expect.poll(() => seen.length).toBeGreaterThan(20);
    await proxy.cut();
    const cutAt = seen.length;
    await expect.poll(async () => (await get('/readyz')).status, { timeout: 10_000 }).toBe(503);
    await expect.poll(() => seen.slice(cutAt).filter((r) => r.status === 503).length, { timeout: 10_000 }).toBeGreaterThan(4);

    await proxy.restore();
    await expect.poll(async () => (await get('/readyz')).status, { timeout: 15_000 }).toBe(200);
    const backAt = seen.length;
    await expect.poll(() => seen.slice(backAt).filter((r) => r.status === 200).length, { timeout: 10_000 }).toBeGreaterThan(20);
    loading = false;
    await Promise.all(clients);

    const during = seen.slice(cutAt, backAt);
    expect(during.filter((r) => r.status === 503).every((r) => r.retryAfter !== null && Number(r.retryAfter) > 0)).toBe(true);
    expect(seen.filter((r) => r.status !== 200 && r.status !== 503)).toEqual([]);
    expect(seen.slice(backAt + 8).every((r) => r.status === 200)).toBe(true);

    // Writes work again, and the replica hears the others again (its LISTEN connection is back).
    const created = await app.request('/api/v2/nas', {
      method: 'POST',
      headers: { authorization: basic, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'after-outage', host: 'localhost', type: 'local' }),
    });
    expect(created.status).toBe(201);
    expect((await get('/api/v2/nas', bearer)).status).toBe(200);
    await direct.core.apiKeys.destroy(systemPrincipal, String(keyId));
    await expect.poll(async () => (await get('/api/v2/nas', bearer)).status, { timeout: 2_000, interval: 50 }).toBe(401);
  }, 60_000);
});
