// The hostile section of the bench: for each hostile input, a fresh dms server (the built CLI,
// `serve`, with loop-probe.mjs preloaded), the data an input's optional prepare(target) stores
// before the window opens, the attack of hostile/<input>.mjs against it, and
// what it cost the server: the worst event-loop delay (monitorEventLoopDelay, in the server),
// the RSS growth (VmHWM after the attack over VmRSS before, peak reset through clear_refs),
// and the slowest /healthz answer seen by a probe running beside the attack.
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import dgram from 'node:dgram';
import http from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, makeTempDir, sleep, spawnChild, stopChild, waitForHttp } from '../lib.mjs';
import { cliMain, serveNodeFlags, serverEnv } from '../server.mjs';

const hostileDir = dirname(fileURLToPath(import.meta.url));
/** The hostile inputs of issues 20 and 40, each a module of this folder exporting attack(target). */
export const hostileInputs = ['getbulk', 'nested-json', 'nfs-peer', 'login-flood', 'slow-headers', 'like-pattern', 'rrule-churn'];
export const hostileGoals = { loopDelayMaxMs: 100, rssGrowthMb: 100 };

async function freeUdpPort() {
  const socket = dgram.createSocket('udp4');
  socket.bind(0, '127.0.0.1');
  await once(socket, 'listening');
  const { port } = socket.address();
  await new Promise((resolve) => socket.close(resolve));
  return port;
}

function procStatusMb(pid, field) {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

/** Asks the probe in the server, over IPC, and waits for its answer. */
async function ask(child, type) {
  const answer = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not answer '${type}' within 30 s`)), 30_000);
    const onMessage = (message) => {
      if (message?.type !== type) return;
      clearTimeout(timer);
      child.off('message', onMessage);
      resolve(message);
    };
    child.on('message', onMessage);
  });
  child.send({ type });
  return answer;
}

async function startHostileServer() {
  const dataDir = makeTempDir('dms-hostile-');
  const localRoot = join(dataDir, 'shares');
  mkdirSync(join(localRoot, 'testdir'), { recursive: true });
  writeFileSync(join(localRoot, 'testdir', 'a.txt'), 'a');
  const adminPassword = 'hostile-bench-admin-password';
  const port = await freePort();
  const snmpPort = await freeUdpPort();
  const env = serverEnv({
    dataDir,
    port,
    adminPassword,
    logLevel: 'silent',
    localRoots: localRoot,
    extraEnv: {
      DMS_SNMP_AGENT_PORT: String(snmpPort),
      // The default budgets, not the rest of the bench's unlimited ones: what an attacker meets.
      DMS_RATE_LIMIT_PER_MINUTE: '600',
      // Lets an attack speak for many client addresses through X-Forwarded-For, as a botnet would.
      DMS_TRUSTED_PROXIES: '127.0.0.1',
    },
  });
  // Under the V8 flags `npm start` serves with, as the show bench's servers: the RSS a hostile input
  // grows is then what a served dms would grow, not V8 growing an uncapped heap at leisure.
  const child = spawnChild(process.execPath, [...serveNodeFlags, '--import', join(hostileDir, 'loop-probe.mjs'), cliMain, 'serve'], { env, ipc: true });
  const origin = `http://127.0.0.1:${port}`;
  await waitForHttp(`${origin}/healthz`, child);
  return {
    child,
    target: {
      origin,
      base: `${origin}/api/v2`,
      adminAuth: `Basic ${Buffer.from(`admin:${adminPassword}`).toString('base64')}`,
      snmpPort,
      dataDir,
      localRoot,
    },
  };
}

/** A GET on a connection of its own: never queued behind an attack's requests in a shared agent. */
function getOnce(url, timeoutMs) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${url} timed out`)));
    req.on('error', reject);
  });
}

/** /healthz every 50 ms while the attack runs; the slowest answer (a timeout counts as its length). */
function healthProbe(origin) {
  let running = true;
  let slowestMs = 0;
  let failures = 0;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        await getOnce(`${origin}/healthz`, 10_000);
      } catch {
        failures += 1;
      }
      slowestMs = Math.max(slowestMs, performance.now() - started);
      await sleep(50);
    }
  })();
  return async () => {
    running = false;
    await loop;
    return { slowestMs, failures };
  };
}

/** Runs one hostile input against a server of its own; what it cost, and the attack's note. */
export async function measureHostile(input, log) {
  const { attack, prepare } = await import(join(hostileDir, `${input}.mjs`));
  const { child, target } = await startHostileServer();
  try {
    await prepare?.(target);
    await sleep(500); // start-up work (migrations, first admin) done before the window opens
    await ask(child, 'reset');
    const rssBeforeMb = procStatusMb(child.pid, 'VmRSS');
    writeFileSync(`/proc/${child.pid}/clear_refs`, '5'); // VmHWM := VmRSS
    const stopProbe = healthProbe(target.origin);
    const started = performance.now();
    // An attack answers its note, or { note, rows } with rows of its own (hostile.<input>.<row>).
    const outcome = await attack({ ...target, log: (message) => log(`${input}: ${message}`) });
    const { note, rows = {} } = typeof outcome === 'string' || outcome === undefined ? { note: outcome } : outcome;
    const seconds = (performance.now() - started) / 1000;
    const health = await stopProbe();
    const { loopDelayMaxMs } = await ask(child, 'read');
    const rssGrowthMb = Math.max(0, procStatusMb(child.pid, 'VmHWM') - rssBeforeMb);
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the server exited during ${input}: ${child.stderrTail()}`);
    return { loopDelayMaxMs, rssGrowthMb, healthzMaxMs: health.slowestMs, healthzFailures: health.failures, seconds, note, rows };
  } finally {
    await stopChild(child, 5000);
  }
}

/** Every hostile input whose module exists, recorded as hostile.<input>.* rows. */
export async function hostileBench({ record, notes, log, targets }) {
  for (const input of hostileInputs) {
    targets[`hostile.${input}.loop_delay_max_ms`] = { op: '<', value: hostileGoals.loopDelayMaxMs };
    targets[`hostile.${input}.rss_growth_mb`] = { op: '<', value: hostileGoals.rssGrowthMb };
    if (!existsSync(join(hostileDir, `${input}.mjs`))) {
      notes.push(`hostile.${input}: no attack module (bench/hostile/${input}.mjs)`);
      continue;
    }
    try {
      const result = await measureHostile(input, log);
      record(`hostile.${input}.loop_delay_max_ms`, result.loopDelayMaxMs, 'ms');
      record(`hostile.${input}.rss_growth_mb`, result.rssGrowthMb, 'MB');
      record(`hostile.${input}.healthz_max_ms`, result.healthzMaxMs, 'ms');
      for (const [row, { value, unit, goal }] of Object.entries(result.rows)) {
        record(`hostile.${input}.${row}`, value, unit);
        if (goal) targets[`hostile.${input}.${row}`] = goal;
      }
      notes.push(
        `hostile.${input}: ${result.note ?? 'sent'}; ${result.seconds.toFixed(1)} s; /healthz probed every 50 ms beside it, slowest ${Math.round(result.healthzMaxMs)} ms, ${result.healthzFailures} failed`,
      );
      log(
        `hostile ${input}: loop delay max ${result.loopDelayMaxMs.toFixed(1)} ms, RSS +${result.rssGrowthMb.toFixed(1)} MB, /healthz max ${Math.round(result.healthzMaxMs)} ms`,
      );
    } catch (error) {
      notes.push(`hostile.${input}: ERROR ${error instanceof Error ? error.message : String(error)}`);
      log(`hostile ${input}: error ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  }
}
