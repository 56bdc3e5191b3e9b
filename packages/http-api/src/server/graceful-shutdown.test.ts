import { Agent, request } from 'node:http';
import { createServer, type Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStorage } from '@dms/core/sqlite';
import { parseResponses, rawConnect, type RawConnection } from '../testing/raw-http.js';
import { exitWithin, startServeProcess, until, type ServeProcess } from '../testing/serve-process.js';
import { jsonCaller, type JsonAnswer } from '../testing/json-call.js';

/**
 * Issue 21 item 4: `dms serve` stops within DMS_SHUTDOWN_TIMEOUT_MS under load, a real process
 * sent SIGTERM by this one, and nothing it acknowledged is lost.
 */
const password = 'shutdown-test-password';
const auth = `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;
const timeoutMs = 2_000;
/** Beyond the timeout: Node's own exit and the signal's delivery, on a machine the load of the test itself keeps busy (the old drain took 26 s). */
const exitSlackMs = 2_000;

type Dms = ServeProcess;
const startDms = (dataDir: string, env: Record<string, string> = {}) =>
  startServeProcess(dataDir, password, { DMS_SHUTDOWN_TIMEOUT_MS: String(timeoutMs), ...env });

function call(dms: Dms, method: string, path: string, body?: unknown): Promise<JsonAnswer> {
  return jsonCaller(() => `${dms.url}/api/v2`, auth)(method, path, body);
}

/**
 * An NFS "server" that accepts and never answers: a share test's driver waits on it until its
 * timeout (DMS_DRIVER_TIMEOUT_MS), so its job stays working. `hangUpAtOnce` makes it close
 * new connections at once instead, so a job on it ends failed at once.
 */
async function hangingPeer() {
  const held: Socket[] = [];
  const state = { hangUpAtOnce: false };
  const peer = createServer((socket) => {
    socket.on('error', () => {});
    if (state.hangUpAtOnce) socket.destroy();
    else held.push(socket);
  });
  await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
  return {
    held,
    state,
    port: (peer.address() as { port: number }).port,
    close: () => new Promise<void>((resolve) => (held.forEach((socket) => socket.destroy()), peer.close(() => resolve()))),
  };
}

/** Queues an unsaved share test on the NAS `slow` (NFS v4 at the hanging peer); the job's id. */
async function enqueueTest(dms: Dms, peerPort: number, name: string): Promise<string> {
  const started = await call(dms, 'PUT', '/nas/slow/nas_shares/-/test', { name, path: '/export', options: `port=${peerPort}` });
  expect(started.status).toBe(202);
  return String(started.body['job_id']);
}

const jobStatus = async (dms: Dms, jobId: string) => (await call(dms, 'GET', `/nas/slow/nas_shares/-/test?job_id=${jobId}`)).body['status'];

describe('issue 21 item 4: dms serve stops within DMS_SHUTDOWN_TIMEOUT_MS and loses nothing it acknowledged', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'dms-shutdown-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  };
  const serve = async (dir: string, env?: Record<string, string>) => {
    const dms = await startDms(dir, env);
    cleanups.push(async () => {
      if (dms.child.exitCode === null) dms.child.kill('SIGKILL');
      await dms.exited;
    });
    return dms;
  };

  it('item 21.4: SIGTERM under 100 keep-alive connections creating NAS, with long-polls (wait=30) on a queued job: exit 0 within the timeout, the long-polls answered, and every 2xx create is there after a restart', async () => {
    const peer = await hangingPeer();
    cleanups.push(peer.close);
    const dir = dataDir();
    const dms = await serve(dir, { DMS_JOB_CONCURRENCY: '1', DMS_DRIVER_TIMEOUT_MS: '30000' });
    // One job holds the only worker; the next waits in the queue, and three clients long-poll it.
    expect((await call(dms, 'POST', '/nas', { name: 'slow', host: '127.0.0.1', type: 'nfs_v4' })).status).toBe(201);
    await enqueueTest(dms, peer.port, 'holding');
    await until(() => peer.held.length === 1);
    const waiting = await enqueueTest(dms, peer.port, 'waiting');
    const longPolls = Array.from({ length: 3 }, () =>
      fetch(`${dms.url}/api/v2/nas/slow/nas_shares/-/test?job_id=${waiting}&wait=30`, { headers: { authorization: auth } }).then(
        async (response) => ({
          status: response.status,
          body: (await response.json()) as Record<string, unknown>,
        }),
        (error: unknown) => ({ status: 0, body: { error: String(error) } as Record<string, unknown> }),
      ),
    );
    const agent = new Agent({ keepAlive: true, maxSockets: 100 });
    cleanups.push(() => agent.destroy());
    const acknowledged: string[] = [];
    let signalledAt = Number.POSITIVE_INFINITY;
    let afterSignal = 0;
    let running = true;
    cleanups.push(() => void (running = false));
    const create = (name: string) =>
      new Promise<number>((resolve, reject) => {
        const body = JSON.stringify({ name, host: 'nas.example', type: 'local' });
        const req = request(
          {
            agent,
            host: '127.0.0.1',
            port: dms.port,
            method: 'POST',
            path: '/api/v2/nas',
            headers: { authorization: auth, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
          },
          (response) => {
            response.resume();
            response.once('end', () => resolve(response.statusCode ?? 0));
            response.once('error', reject);
          },
        );
        req.once('error', reject);
        req.end(body);
      });
    const loop = async (connection: number) => {
      for (let n = 0; running; n++) {
        const name = `c${connection}-${n}`;
        try {
          const status = await create(name);
          if (status >= 200 && status < 300) {
            acknowledged.push(name);
            if (performance.now() > signalledAt) afterSignal += 1;
          }
        } catch {
          // Refused or reset once the server stops; like a real client, try again (a new
          // connection) a little later, until the server is gone.
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    };
    const loops = Array.from({ length: 100 }, (_, i) => loop(i));
    await until(() => acknowledged.length >= 500, 20_000);

    signalledAt = performance.now();
    dms.child.kill('SIGTERM');
    const exit = await exitWithin(dms, timeoutMs + 5_000);
    running = false;
    expect(exit, `dms did not exit within ${timeoutMs + 5_000} ms of SIGTERM`).toBeDefined();
    expect(exit!.code).toBe(0);
    expect(exit!.at - signalledAt).toBeLessThan(timeoutMs + exitSlackMs);
    await Promise.all(loops);
    // Each connection has at most one request in flight: a few answers per connection at most,
    // not the thousands a drain that keeps serving open connections gives.
    expect(afterSignal).toBeLessThanOrEqual(300);
    expect(dms.output()).toContain('dms stopped');
    for (const answer of await Promise.all(longPolls)) expect([answer.status, answer.body['status']]).toEqual([202, 'queued']);
    expect(peer.held).toHaveLength(1);

    const again = await serve(dir);
    const stored = new Set<string>();
    for (let page = 1; ; page++) {
      const list = await call(again, 'GET', `/nas?per_page=100&page=${page}&sort_by=id`);
      const items = list.body['nas'] as Array<{ name: string }>;
      for (const item of items) stored.add(item.name);
      if (items.length < 100) break;
    }
    const lost = acknowledged.filter((name) => !stored.has(name));
    expect(lost).toEqual([]);
  });

  it('item 21.4: a second signal forces the stop at once: the running job is put back in the queue and the process exits 0 without waiting out the timeout', async () => {
    const peer = await hangingPeer();
    cleanups.push(peer.close);
    const dir = dataDir();
    const dms = await serve(dir, { DMS_JOB_CONCURRENCY: '1', DMS_DRIVER_TIMEOUT_MS: '30000', DMS_SHUTDOWN_TIMEOUT_MS: '20000' });
    expect((await call(dms, 'POST', '/nas', { name: 'slow', host: '127.0.0.1', type: 'nfs_v4' })).status).toBe(201);
    const running = await enqueueTest(dms, peer.port, 'running');
    await until(() => peer.held.length === 1);

    dms.child.kill('SIGINT');
    await until(() => dms.output().includes('dms stopping'), 2_000);
    const secondAt = performance.now();
    dms.child.kill('SIGINT');
    const exit = await exitWithin(dms, 5_000);
    expect(exit, 'dms did not exit within 5 s of the second signal').toBeDefined();
    expect(exit!.code).toBe(0);
    expect(exit!.at - secondAt).toBeLessThan(2_000);
    const storage = openSqliteStorage({ file: join(dir, 'dms.sqlite') });
    try {
      expect(await storage.jobs.get(running)).toMatchObject({ status: 'queued', worker_id: null });
    } finally {
      await storage.close();
    }
  });

  it('item 21.4: on SIGTERM long-polls answer at once with the current status, no queued job is claimed, and a job still running at the timeout is put back in the queue and runs after the restart', async () => {
    const peer = await hangingPeer();
    cleanups.push(peer.close);
    const { held } = peer;

    const dir = dataDir();
    const env = { DMS_JOB_CONCURRENCY: '2', DMS_DRIVER_TIMEOUT_MS: '30000' };
    const dms = await serve(dir, env);
    expect((await call(dms, 'POST', '/nas', { name: 'slow', host: '127.0.0.1', type: 'nfs_v4' })).status).toBe(201);
    const enqueue = (name: string) => enqueueTest(dms, peer.port, name);
    const cutOff = await enqueue('cut-off');
    const running = await enqueue('running');
    await until(() => held.length === 2);
    const queued = await enqueue('queued');
    expect([await jobStatus(dms, cutOff), await jobStatus(dms, running), await jobStatus(dms, queued)]).toEqual(['working', 'working', 'queued']);

    const longPoll = async (jobId: string): Promise<RawConnection> => {
      const connection = await rawConnect(dms.port);
      connection.socket.write(`GET /api/v2/nas/slow/nas_shares/-/test?job_id=${jobId}&wait=30 HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\n\r\n`);
      return connection;
    };
    const polls = [await longPoll(running), await longPoll(queued)];
    // A round trip after them: the server has read the long-polls by the time it answers.
    expect((await fetch(`${dms.url}/healthz`)).status).toBe(200);
    expect(polls.every((poll) => poll.received() === '')).toBe(true);

    const signalledAt = performance.now();
    dms.child.kill('SIGTERM');
    // One job ends by itself during the drain (once the server has begun it): its worker is
    // free, yet takes no queued job.
    await until(() => dms.output().includes('dms stopping'), 1_000);
    held[0]!.destroy();

    const answers = await Promise.all(
      polls.map(async (poll) => {
        await until(() => parseResponses(poll.received()).length === 1, 5_000);
        return { ms: performance.now() - signalledAt, response: parseResponses(poll.received())[0]! };
      }),
    );
    for (const { ms, response } of answers) {
      expect(ms).toBeLessThan(2_000);
      expect(response.status).toBe(202);
      expect(response.headers['connection']).toBe('close');
    }
    expect(answers.map(({ response }) => (JSON.parse(response.body) as { status: string }).status)).toEqual(['working', 'queued']);

    const exit = await exitWithin(dms, timeoutMs + 5_000);
    expect(exit, `dms did not exit within ${timeoutMs + 5_000} ms of SIGTERM`).toBeDefined();
    expect(exit!.code).toBe(0);
    expect(exit!.at - signalledAt).toBeLessThan(timeoutMs + exitSlackMs);
    // No third connection: the queued job was never claimed.
    expect(held).toHaveLength(2);

    const storage = openSqliteStorage({ file: join(dir, 'dms.sqlite') });
    try {
      const [ended, returned, waiting] = await Promise.all([cutOff, running, queued].map((id) => storage.jobs.get(id)));
      expect(ended).toMatchObject({ status: 'failed' });
      expect(ended!.message).not.toMatch(/interrupted/);
      expect(returned).toMatchObject({ status: 'queued', worker_id: null, started_at: null, progress: 0 });
      expect(returned!.payload_enc).not.toBeNull();
      expect(waiting).toMatchObject({ status: 'queued', worker_id: null, started_at: null });
    } finally {
      await storage.close();
    }
    expect(dms.output()).toMatch(/put back in the queue/);

    // The restart runs both: the peer now hangs up at once, so each ends with its own answer.
    peer.state.hangUpAtOnce = true;
    const again = await serve(dir, env);
    for (const jobId of [running, queued]) {
      let done = await call(again, 'GET', `/nas/slow/nas_shares/-/test?job_id=${jobId}&wait=10`);
      for (let polls = 0; done.status === 202 && polls < 5; polls++) done = await call(again, 'GET', `/nas/slow/nas_shares/-/test?job_id=${jobId}&wait=10`);
      expect(done.status).toBe(200);
      expect(done.body['status']).toBe('failed');
      expect(String(done.body['message'])).not.toMatch(/interrupted/);
    }
  });
});
