import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { exitWithin, startServeProcess, until, type ServeProcess } from '../testing/serve-process.js';

/**
 * Issue 27 item 1: the access log at the default level (info) is written asynchronously, so a
 * reader of stdout that falls behind never holds the event loop, and nothing logged is lost
 * when dms stops on SIGTERM. A real `dms serve`, its stdout a pipe read by this process.
 */
const password = 'access-log-test-password';
const auth = `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;

/** GET /api/v2/nas with the given X-Request-Id over a keep-alive agent; resolves the status. */
function get(dms: ServeProcess, agent: Agent, requestId: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${dms.url}/api/v2/nas`, { agent, headers: { authorization: auth, 'x-request-id': requestId } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

/** `count` requests over `connections` keep-alive connections; their ids, all answered 200. */
async function load(dms: ServeProcess, prefix: string, count: number, connections = 16): Promise<string[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const ids = Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
  let next = 0;
  const statuses: number[] = [];
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < ids.length) statuses.push(await get(dms, agent, ids[next++]!));
    }),
  );
  agent.destroy();
  expect(statuses.filter((status) => status !== 200)).toEqual([]);
  return ids;
}

/** The request ids of the access-log lines written so far, and the keys those lines hold. */
function accessLines(dms: ServeProcess): { ids: Set<string>; keys: Set<string> } {
  const ids = new Set<string>();
  const keys = new Set<string>();
  // Only complete lines: what follows the last newline may be the head of a line still being written.
  for (const text of dms.output().split('\n').slice(0, -1)) {
    if (!text.startsWith('{')) continue;
    const line = JSON.parse(text) as Record<string, unknown>;
    if (line['msg'] !== 'request') continue;
    ids.add(String(line['req_id']));
    for (const key of Object.keys(line)) keys.add(key);
  }
  return { ids, keys };
}

describe('issue 27 item 1: the access log is asynchronous and complete', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const serve = async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dms-access-log-'));
    const dms = await startServeProcess(dir, password);
    cleanups.push(async () => {
      if (dms.child.exitCode === null) dms.child.kill('SIGKILL');
      await dms.exited;
      rmSync(dir, { recursive: true, force: true });
    });
    return dms;
  };

  it('every request answered before SIGTERM has its line on stdout when dms has exited, before "dms stopped"; a line holds only the fields the access log names', async () => {
    const dms = await serve();
    const ids = await load(dms, 'before-stop', 3000);
    dms.child.kill('SIGTERM');
    const exit = await exitWithin(dms, 15_000);
    expect(exit?.code).toBe(0);
    const { ids: logged, keys } = accessLines(dms);
    expect(ids.filter((id) => !logged.has(id))).toEqual([]);
    const output = dms.output();
    expect(output.lastIndexOf('"msg":"dms stopped"')).toBeGreaterThan(output.lastIndexOf(`"req_id":"${ids.at(-1)}"`));
    // Redaction is off for these lines (accessLog): nothing but these fields may ever go in them.
    expect([...keys].sort()).toEqual(['level', 'method', 'ms', 'msg', 'path', 'principal', 'req_id', 'service', 'status', 'time']);
  }, 60_000);

  it('a single request on an idle service has its line on stdout within a second (lines are batched, not held)', async () => {
    const dms = await serve();
    const [id] = await load(dms, 'alone', 1, 1);
    await until(() => accessLines(dms).ids.has(id!), 1_000);
  });

  it('a reader that stops reading stdout does not stop dms from answering, and gets every line once it reads again', async () => {
    const dms = await serve();
    // About 250 bytes a line: 4000 lines are ~1 MB, far past a pipe's 64 KiB buffer, which a
    // synchronous write would wait on with the whole event loop.
    dms.child.stdout!.pause();
    let timer: NodeJS.Timeout | undefined;
    const stalled = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), 30_000)));
    const ids = await Promise.race([load(dms, 'unread', 4000), stalled]);
    clearTimeout(timer);
    expect(ids, 'dms stopped answering while nobody read its stdout').toBeDefined();
    if (!ids) return;
    expect(accessLines(dms).ids.size).toBeLessThan(ids.length);
    dms.child.stdout!.resume();
    await until(() => accessLines(dms).ids.size >= ids.length, 20_000);
    const logged = accessLines(dms).ids;
    expect(ids.filter((id) => !logged.has(id))).toEqual([]);
  }, 60_000);
});
