// Graceful shutdown under load (issue 21 item 4): SIGTERM to a server busy with 100 keep-alive
// connections creating NAS, long-polls waiting on a queued job and a job its NAS never answers;
// how long until the process is gone, and whether every create it acknowledged is there after
// a restart on the same data dir.
import net from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTempDir, request, spawnChild, stopChild } from './lib.mjs';
import { assertBuilt, startServer } from './server.mjs';

const benchDir = dirname(fileURLToPath(import.meta.url));
const password = 'bench-shutdown-password';
const auth = `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;
const connections = 100;
const longPolls = 3;
/** Creates acknowledged before the signal: the load is in its stride by then. */
const loadedAfter = 2_000;
/** How long the bench waits for the exit before it gives up (and kills the server). */
const giveUpMs = 40_000;

/** A TCP peer that accepts and never answers (an NFS server that hangs), or hangs up at once. */
async function hangingPeer() {
  const held = [];
  const state = { accepted: 0, hangUpAtOnce: false };
  const server = net.createServer((socket) => {
    state.accepted += 1;
    socket.on('error', () => {});
    if (state.hangUpAtOnce) socket.destroy();
    else held.push(socket);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    state,
    port: server.address().port,
    close: () =>
      new Promise((resolve) => {
        for (const socket of held) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

async function call(server, method, path, body) {
  const response = await request(`${server.base}${path}`, { method, headers: { authorization: auth }, ...(body === undefined ? {} : { body }) });
  return { status: response.status, json: () => response.json(), body: response.body };
}

async function until(condition, withinMs, what) {
  const deadline = performance.now() + withinMs;
  while (!(await condition())) {
    if (performance.now() > deadline) throw new Error(`shutdown bench: ${what} not within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * @param {{ record: (name: string, value: number, unit: string) => void, notes: string[], log: (message: string) => void }} bench
 */
export async function shutdownBench({ record, notes, log }) {
  assertBuilt();
  const dataDir = makeTempDir('dms-bench-shutdown-');
  const peer = await hangingPeer();
  let load;
  let server;
  try {
    // One worker, held by a share test whose NFS server never answers; a second test waits in the queue.
    server = await startServer({ dataDir, adminPassword: password, label: 'shutdown', extraEnv: { DMS_JOB_CONCURRENCY: '1', DMS_DRIVER_TIMEOUT_MS: '60000' } });
    const slow = await call(server, 'POST', '/nas', { name: 'slow', host: '127.0.0.1', type: 'nfs_v4' });
    if (slow.status !== 201) throw new Error(`POST /nas answered ${slow.status}: ${slow.body}`);
    const enqueue = async (name) => {
      const started = await call(server, 'PUT', '/nas/slow/nas_shares/-/test', { name, path: '/export', options: `port=${peer.port}` });
      if (started.status !== 202) throw new Error(`PUT …/-/test answered ${started.status}: ${started.body}`);
      return started.json().job_id;
    };
    const holding = await enqueue('holding');
    await until(() => peer.state.accepted === 1, 10_000, 'the first job connecting');
    const waiting = await enqueue('waiting');

    const specFile = join(dataDir, 'load.json');
    const acknowledgedFile = join(dataDir, 'acknowledged.json');
    const longPollUrl = `${server.base}/nas/slow/nas_shares/-/test?job_id=${waiting}&wait=30`;
    writeFileSync(
      specFile,
      JSON.stringify({ origin: server.origin, auth, connections, longPollUrls: Array(longPolls).fill(longPollUrl), acknowledgedFile, loadedAfter }),
    );
    load = spawnChild(process.execPath, [join(benchDir, 'shutdown-load.mjs'), specFile], { ipc: true });
    const messages = [];
    const next = (phase) =>
      new Promise((resolve, reject) => {
        const look = () => {
          const found = messages.find((message) => message.phase === phase);
          if (found) return resolve(found);
          if (load.exitCode !== null) return reject(new Error(`the shutdown load exited early: ${load.stderrTail()}`));
          setTimeout(look, 20);
        };
        look();
      });
    load.on('message', (message) => messages.push(message));
    await next('loaded');

    const signalledAt = performance.now();
    server.child.kill('SIGTERM');
    load.send({ signalled: true });
    let timer;
    const exit = await Promise.race([server.child.exited, new Promise((resolve) => (timer = setTimeout(() => resolve(undefined), giveUpMs)))]);
    clearTimeout(timer);
    const exitMs = performance.now() - signalledAt;
    if (exit === undefined) await stopChild(server.child, 0);
    const claimedAfterSignal = peer.state.accepted - 1;
    load.send({ stop: true });
    const summary = await next('done');
    await load.exited;
    load = undefined;

    // The restart on the same data dir: every acknowledged create must be there.
    peer.state.hangUpAtOnce = true;
    server = await startServer({ dataDir, adminPassword: password, label: 'shutdown-restart', extraEnv: { DMS_SHUTDOWN_TIMEOUT_MS: '2000' } });
    const stored = new Set();
    for (let page = 1; ; page++) {
      const list = await call(server, 'GET', `/nas?per_page=100&page=${page}&sort_by=id`);
      if (list.status !== 200) throw new Error(`GET /nas answered ${list.status}: ${list.body}`);
      const items = list.json().nas;
      for (const item of items) stored.add(item.name);
      if (items.length < 100) break;
    }
    const acknowledged = JSON.parse(readFileSync(acknowledgedFile, 'utf8'));
    const lost = acknowledged.filter((name) => !stored.has(name)).length;
    // Both run again after the restart (the peer now hangs up at once, so they end at once).
    const jobs = await Promise.all(
      [holding, waiting].map(async (id) => {
        let job = (await call(server, 'GET', `/nas/slow/nas_shares/-/test?job_id=${id}`)).json();
        for (let polls = 0; (job.status === 'queued' || job.status === 'working') && polls < 5; polls++) {
          job = (await call(server, 'GET', `/nas/slow/nas_shares/-/test?job_id=${id}&wait=5`)).json();
        }
        return job;
      }),
    );

    const pollMs = summary.longPolls.map((poll) => poll.afterSignalMs);
    record('shutdown.exit_s', exit === undefined ? Number.NaN : exitMs / 1000, 's');
    record('shutdown.acknowledged_lost', lost, 'count');
    record('shutdown.last_answer_after_signal_ms', summary.after.lastAckMs, 'ms');
    record('shutdown.longpoll_answer_max_ms', Math.max(...pollMs), 'ms');
    record('shutdown.jobs_claimed_after_signal', claimedAfterSignal, 'count');
    notes.push(
      `shutdown: SIGTERM (DMS_SHUTDOWN_TIMEOUT_MS default, 10 s) to a server with ${connections} keep-alive connections creating NAS from a load process, ${longPolls} long-polls (wait=30) on a queued share test, ` +
        `and one running share test whose NFS server accepts and never answers (DMS_JOB_CONCURRENCY=1); exit code ${exit ? exit.code : 'none: killed'} after ${(exitMs / 1000).toFixed(2)} s; ` +
        `${summary.acknowledged} creates acknowledged, ${summary.after.acknowledged} of them after the signal (${summary.after.keepAlive} of those said keep-alive), last at ${Math.round(summary.after.lastAckMs)} ms; ` +
        `long-polls answered after ${pollMs.map((ms) => Math.round(ms)).join(', ')} ms with ${summary.longPolls.map((poll) => poll.status ?? poll.error).join(', ')}; ` +
        `${lost} acknowledged creates missing after the restart; jobs after the restart: ${jobs.map((job) => `${job.status}${job.message ? ` (${job.message})` : ''}`).join(', ')}. ` +
        'The exit time is the job grace: a job still running is aborted at the timeout less 1 s and put back in the queue; without one the exit follows the last request.',
    );
    log(
      `shutdown: exit ${exit ? exit.code : 'killed'} after ${(exitMs / 1000).toFixed(2)} s, ${summary.after.acknowledged} acknowledged after the signal, ${lost} lost`,
    );
  } finally {
    if (load) await stopChild(load, 1000);
    if (server) await stopChild(server.child, 5000);
    await peer.close();
  }
}
