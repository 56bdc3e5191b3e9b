import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseResponses, rawConnect, type RawConnection } from '../testing/raw-http.js';
import { readConfig } from './config.js';
import { startServer, type RunningServer } from './serve.js';

/** GET /healthz on a connection of its own from `localAddress`: its status, or the error that ended it. */
function healthzFrom(port: number, localAddress: string): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/healthz', localAddress, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    req.end();
  });
}

/** A slow-header client: connects and sends the start of a request, never its end. */
async function slowClients(port: number, count: number, localAddress: string): Promise<RawConnection[]> {
  const connections = await Promise.all(Array.from({ length: count }, () => rawConnect(port, { localAddress })));
  for (const connection of connections) if (!connection.isClosed()) connection.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
  return connections;
}

/**
 * Counts the connections still open once `closed` of them are closed (those refused at accept)
 * and a later connection has been through the server, which takes its connections in order.
 */
async function settled(port: number, connections: RawConnection[], closed: number): Promise<{ open: number; closed: number }> {
  const count = () => connections.filter((c) => c.isClosed()).length;
  await expect.poll(count).toBeGreaterThanOrEqual(closed);
  await healthzFrom(port, '127.0.0.8');
  return { open: connections.length - count(), closed: count() };
}

describe('connection caps (finding 20.14)', () => {
  let dir: string;
  let server: RunningServer;
  let port: number;
  const held: RawConnection[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dms-caps-'));
    server = await startServer(
      readConfig({
        DMS_DATA_DIR: dir,
        DMS_PORT: '0',
        DMS_ADMIN_PASSWORD: 'caps-password',
        DMS_LOG_LEVEL: 'silent',
        DMS_MAX_CONNECTIONS: '12',
        DMS_MAX_CONNECTIONS_PER_ADDRESS: '5',
        DMS_TRUSTED_PROXIES: '127.0.0.9',
      }),
    );
    port = Number(new URL(server.url).port);
  });
  afterEach(async () => {
    for (const connection of held.splice(0)) connection.socket.destroy();
    // Every slot free again before the next test: a client of each address gets its answer.
    for (const address of ['127.0.0.1', '127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.9']) await expect.poll(() => healthzFrom(port, address)).toBe(200);
  });
  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('finding 20.14: slow-header connections past DMS_MAX_CONNECTIONS_PER_ADDRESS are closed at once, and a client of another address still gets answers', async () => {
    held.push(...(await slowClients(port, 20, '127.0.0.2')));
    expect(await settled(port, held, 15)).toEqual({ open: 5, closed: 15 });
    expect(await healthzFrom(port, '127.0.0.2')).not.toBe(200);
    expect(await healthzFrom(port, '127.0.0.3')).toBe(200);
  });

  it('finding 20.14: DMS_MAX_CONNECTIONS holds over every address', async () => {
    held.push(...(await slowClients(port, 5, '127.0.0.2')), ...(await slowClients(port, 5, '127.0.0.3')));
    const third = await slowClients(port, 5, '127.0.0.4');
    held.push(...third);
    expect(await settled(port, held, 3)).toEqual({ open: 12, closed: 3 });
    expect(await healthzFrom(port, '127.0.0.1')).not.toBe(200);
    held.splice(0, 1)[0]!.socket.destroy();
    await expect.poll(() => healthzFrom(port, '127.0.0.1')).toBe(200);
  });

  it("finding 20.14: a trusted proxy's own address is held to the total only (its connections carry many clients)", async () => {
    held.push(...(await slowClients(port, 10, '127.0.0.9')));
    expect(await settled(port, held, 0)).toEqual({ open: 10, closed: 0 });
    expect(await healthzFrom(port, '127.0.0.9')).toBe(200);
  });

  it('finding 20.14: a connection closed for the cap is given back: its address may connect again', async () => {
    held.push(...(await slowClients(port, 5, '127.0.0.2')));
    held.splice(0, 2).forEach((connection) => connection.socket.destroy());
    await expect.poll(() => healthzFrom(port, '127.0.0.2')).toBe(200);
  });
});

describe('slow headers are closed in bounded time (finding 20.14)', () => {
  let dir: string;
  let server: RunningServer;
  let port: number;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dms-slow-headers-'));
    server = await startServer(
      readConfig({
        DMS_DATA_DIR: dir,
        DMS_PORT: '0',
        DMS_ADMIN_PASSWORD: 'slow-password',
        DMS_LOG_LEVEL: 'silent',
        DMS_HEADERS_TIMEOUT_MS: '400',
        DMS_REQUEST_TIMEOUT_MS: '1000',
      }),
    );
    port = Number(new URL(server.url).port);
  });
  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('finding 20.14: a connection dribbling its headers a byte at a time gets 408 after DMS_HEADERS_TIMEOUT_MS, not Node’s 60 s checked every 30 s', async () => {
    const connections = await slowClients(port, 20, '127.0.0.5');
    const started = performance.now();
    const dribble = setInterval(() => connections.forEach((c) => c.isClosed() || c.socket.write('X')), 50);
    try {
      const ends = await Promise.all(connections.map((c) => c.closed));
      const after = ends.map(({ at }) => at - started);
      // 400 ms, checked every 40 ms; the rest is slack for a busy machine.
      expect(Math.min(...after)).toBeGreaterThanOrEqual(300);
      expect(Math.max(...after)).toBeLessThan(2_000);
      expect(connections.map((c) => parseResponses(c.received()).map((r) => r.status))).toEqual(connections.map(() => [408]));
    } finally {
      clearInterval(dribble);
    }
    expect(await healthzFrom(port, '127.0.0.5')).toBe(200);
  });

  it('finding 20.14: a connection that sends nothing is closed after the headers timeout too', async () => {
    const [idle] = await Promise.all([rawConnect(port, { localAddress: '127.0.0.6' })]);
    const started = performance.now();
    const { at } = await idle!.closed;
    expect(at - started).toBeLessThan(2_000);
  });
});
