// Shared helpers of the benchmark: child processes, temp dirs, ports, HTTP, autocannon, /proc.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';

const children = new Set();
const tempDirs = new Set();
/** Other things the bench must undo (a PostgreSQL database): async, plus a synchronous last resort. */
const cleanups = new Set();

/**
 * Registers `{ run, runSync }`: cleanupAll awaits run() after the children are gone,
 * cleanupSync (process 'exit') calls runSync(). Returns a function that unregisters it.
 */
export function onCleanup(cleanup) {
  cleanups.add(cleanup);
  return () => cleanups.delete(cleanup);
}

export function makeTempDir(prefix, base = tmpdir()) {
  const dir = mkdtempSync(join(base, prefix));
  tempDirs.add(dir);
  return dir;
}

export function removeTempDir(dir) {
  rmSync(dir, { recursive: true, force: true });
  tempDirs.delete(dir);
}

/** A port the kernel just handed out (closed again before use). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Spawns a child whose lifetime the bench owns; stderr is kept (tail) for error messages; `ipc: true` opens a message channel. */
export function spawnChild(command, args, options = {}) {
  const stdio = [options.stdin ?? 'ignore', options.stdout ?? 'ignore', 'pipe', ...(options.ipc ? ['ipc'] : [])];
  const child = spawn(command, args, { stdio, env: options.env ?? process.env, cwd: options.cwd });
  children.add(child);
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  child.stderrTail = () => stderr;
  child.exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      children.delete(child);
      resolve({ code, signal });
    }),
  );
  return child;
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the child is gone. */
export async function stopChild(child, graceMs = 3000) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await child.exited;
  clearTimeout(timer);
}

/** Kills every child still running and removes every temp dir; safe to call twice. */
export async function cleanupAll() {
  await Promise.allSettled([...children].map((child) => stopChild(child, 2000)));
  for (const cleanup of [...cleanups]) {
    try {
      await cleanup.run();
      cleanups.delete(cleanup);
    } catch (error) {
      process.stderr.write(`bench: cleanup failed: ${error.message}\n`);
    }
  }
  for (const dir of [...tempDirs]) {
    try {
      removeTempDir(dir);
    } catch (error) {
      process.stderr.write(`bench: could not remove ${dir}: ${error.message}\n`);
    }
  }
}

/** Synchronous last resort (process 'exit'): no awaiting possible there. */
export function cleanupSync() {
  for (const child of children) {
    try {
      child.kill('SIGKILL');
    } catch {
      /* gone */
    }
  }
  for (const cleanup of cleanups) {
    try {
      cleanup.runSync();
    } catch {
      /* best effort */
    }
  }
  for (const dir of tempDirs) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      /* best effort */
    }
  }
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

/**
 * One HTTP request over a keep-alive agent; resolves { status, body (string), json() }.
 * A reused socket the server closed meanwhile (keep-alive race) is retried once.
 */
export async function request(url, options = {}) {
  try {
    return await requestOnce(url, options);
  } catch (error) {
    if (error.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE')) return requestOnce(url, options);
    throw error;
  }
}

function requestOnce(url, { method = 'GET', headers = {}, body, timeoutMs = 35_000 } = {}) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const req = http.request(
      url,
      {
        method,
        agent,
        headers: { ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }), ...headers },
        timeout: timeoutMs,
      },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode, headers: res.headers, body: text, json: () => JSON.parse(text) });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${url} timed out after ${timeoutMs} ms`)));
    req.on('error', (error) => {
      error.reusedSocket = req.reusedSocket;
      reject(error);
    });
    req.end(payload);
  });
}

export function destroyAgent() {
  agent.destroy();
}

const errorText = (error) => (error instanceof Error ? error.message : String(error));

/**
 * The end every bench section shares. Runs `main`; an error of it is noted (`ERROR: …` in
 * `notes`), logged with its stack, and sets exit code 1. Past `budgetMs` (none when omitted) the
 * section reports what it has, noted INCOMPLETE, and exits 1; on SIGINT or SIGTERM it cleans up
 * and exits 130; at process exit children are killed whatever happened. Then the keep-alive
 * agent is closed, children and temp dirs cleaned up, and `report()` runs, once.
 */
export async function withBudget({ budgetMs, main, report, notes, log }) {
  let finished = false;
  const watchdog =
    budgetMs === undefined
      ? undefined
      : setTimeout(() => {
          if (finished) return;
          log(`time budget of ${budgetMs / 1000} s exceeded: stopping`);
          notes.push('INCOMPLETE: the time budget was exceeded');
          try {
            report();
          } catch {
            /* nothing more to say */
          }
          void cleanupAll().finally(() => process.exit(1));
        }, budgetMs);
  process.on('exit', cleanupSync);
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => void cleanupAll().finally(() => process.exit(130)));
  try {
    await main();
  } catch (error) {
    notes.push(`ERROR: ${errorText(error)}`);
    log(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = 1;
  } finally {
    finished = true;
    clearTimeout(watchdog);
    destroyAgent();
    await cleanupAll();
    report();
  }
}

/** Polls `url` (with `headers`) until it answers 2xx or the child exits. */
export async function waitForHttp(url, child, timeoutMs = 30_000, headers = {}) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`process exited (${child.exitCode ?? child.signalCode}) before answering ${url}:\n${child.stderrTail()}`);
    }
    try {
      const res = await request(url, { timeoutMs: 1000, headers });
      if (res.status >= 200 && res.status < 300) return;
      last = `HTTP ${res.status}`;
    } catch (error) {
      last = error.message;
    }
    await sleep(50);
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms (${last}):\n${child.stderrTail()}`);
}

/**
 * Runs autocannon; `paths` (optional) is cycled over by every connection in turn; `overallRate`
 * (optional) holds the load to that many requests a second instead of as many as are answered.
 */
export function cannon({ url, connections, duration, headers = {}, paths, overallRate }) {
  let next = 0;
  const options = {
    url,
    connections,
    duration,
    pipelining: 1,
    headers,
    ...(overallRate ? { overallRate } : {}),
    ...(paths
      ? {
          requests: [
            {
              method: 'GET',
              setupRequest: (req) => {
                req.path = paths[next];
                next = next + 1 === paths.length ? 0 : next + 1;
                return req;
              },
            },
          ],
        }
      : {}),
  };
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/** VmRSS and VmHWM (peak) of a process, in MB (MiB). */
export function processMemory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name) => {
    const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status);
    return match ? Number(match[1]) / 1024 : NaN;
  };
  return { rssMb: field('VmRSS'), hwmMb: field('VmHWM') };
}

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat. */
export function processCpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the comm field: state is [0], utime [11], stime [12] (in clock ticks, 100 Hz on Linux).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * CPU seconds each kind of thread of a process has used so far, by the thread's name in
 * /proc/<pid>/task/<tid>/stat with its number dropped: `MainThread` (node's main thread is named
 * after the process: reported as such), `V8Worker` (the collector's and compiler's helpers),
 * `libuv-worker` (the thread pool: zlib, fs, crypto), … A thread gone meanwhile is not counted.
 */
export function processThreadCpuSeconds(pid) {
  const byKind = {};
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue;
    }
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const kind = Number(tid) === pid ? 'MainThread' : comm.replace(/\d+$/, '');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    byKind[kind] = (byKind[kind] ?? 0) + (Number(fields[11]) + Number(fields[12])) / 100;
  }
  return byKind;
}

/**
 * Context switches of a process's main thread so far (/proc/<pid>/status): `voluntary` when it
 * waited (an idle event loop), `preempted` when the scheduler took the CPU from it mid-work.
 */
export function processContextSwitches(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
  return { voluntary: field('voluntary_ctxt_switches'), preempted: field('nonvoluntary_ctxt_switches') };
}

/** /proc/<pid>/stat of every process named `comm`: { pid, ppid, cpu (own s), children (s) }. */
export function processesNamed(comm) {
  const found = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== comm) continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // ppid [1]; utime [11], stime [12]; cutime [13], cstime [14]: exited children it waited for.
    found.push({
      pid: Number(entry),
      ppid: Number(fields[1]),
      cpu: (Number(fields[11]) + Number(fields[12])) / 100,
      children: (Number(fields[13]) + Number(fields[14])) / 100,
    });
  }
  return found;
}

export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

export const round = (value, digits = 2) => (Number.isFinite(value) ? Math.round(value * 10 ** digits) / 10 ** digits : value);
