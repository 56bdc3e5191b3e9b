// jobs.purge_* (issue 22): what the housekeeping purge of expired jobs costs the server's
// event loop. A SQLite data dir holds 100,000 jobs finished 2 to 60 days ago and 1,000 finished
// within the day, with job_retention_days = 1; the real server (`dms serve`, loop-probe.mjs
// preloaded) starts and its job engine's first housekeeping round purges. The bench watches
// the jobs table through a read-only connection of its own (WAL: it never blocks the server's
// writes) for when the purge begins and ends, probes /healthz beside it, then reads the
// server's worst event-loop delay over the purge, and over an idle stretch as long after it.
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, makeTempDir, round, sleep, spawnChild, stopChild, waitForHttp } from '../lib.mjs';
import { cliMain, serverEnv } from '../server.mjs';
import { hostileGoals } from '../hostile/harness.mjs';
import { jobRows, seedSqliteHistory } from './seed-jobs.mjs';
import { captureStatements, explainStatements } from './statement-plans.mjs';

const BetterSqlite3 = createRequire(import.meta.resolve('@dms/core'))('better-sqlite3');
const benchDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const loopProbe = join(benchDir, 'hostile', 'loop-probe.mjs');
/** The V8 flags `npm start` serves with (root package.json), as startServer uses them. */
const serveNodeFlags = JSON.parse(readFileSync(resolve(benchDir, '../../../package.json'), 'utf8')).config.serve_node_flags.split(' ');
const dayMs = 24 * 3600_000;

const settings = { expired: 100_000, kept: 1_000, pollMs: 5, timeoutMs: 300_000 };

/**
 * The plan of one purge batch as the store runs it (`jobs.purgeFinished`, noted in a transaction
 * that is rolled back, so nothing is deleted yet): the lines, and whether it sorts every expired job.
 */
async function purgePlan(file, before) {
  const { openSqliteStorage } = await import('@dms/core/sqlite');
  const storage = openSqliteStorage({ file, integrity: 'skip' });
  const rollback = new Error('rollback');
  try {
    const statements = await captureStatements('sqlite', () =>
      storage
        .transaction(async (stores) => {
          await stores.jobs.purgeFinished(before, 500);
          throw rollback;
        })
        .catch((error) => {
          if (error !== rollback) throw error;
        }),
    );
    const [plan] = await explainStatements(
      { adapter: 'sqlite', file, table: 'jobs' },
      statements.filter((statement) => /^\s*delete from "jobs"/i.test(statement.sql)),
    );
    return plan;
  } finally {
    await storage.close();
  }
}

/** Asks loop-probe.mjs in the server over IPC and waits for its answer. */
export function ask(child, type) {
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not answer '${type}' within 30 s`)), 30_000);
    const onMessage = (message) => {
      if (message?.type !== type) return;
      clearTimeout(timer);
      child.off('message', onMessage);
      resolvePromise(message);
    };
    child.on('message', onMessage);
    child.send({ type });
  });
}

/** /healthz every 50 ms on a connection of its own until stopped; the slowest answer. */
function healthProbe(origin) {
  let running = true;
  let slowestMs = 0;
  const once = () =>
    new Promise((resolvePromise) => {
      const req = http.get(`${origin}/healthz`, { agent: false, timeout: 10_000 }, (res) => {
        res.resume();
        res.on('end', resolvePromise);
      });
      req.on('timeout', () => req.destroy());
      req.on('error', resolvePromise);
    });
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      await once();
      slowestMs = Math.max(slowestMs, performance.now() - started);
      await sleep(50);
    }
  })();
  return async () => {
    running = false;
    await loop;
    return slowestMs;
  };
}

export async function purgeStallBench({ record, notes, log, targets }) {
  const dataDir = makeTempDir('dms-bench-purge-');
  const now = Date.now();
  const total = settings.expired + settings.kept;
  const jobs = (shares) => [
    // Finished 2 to 60 days ago: past job_retention_days = 1.
    ...jobRows({ count: settings.expired, shares, newestAt: now - 2 * dayMs, spanDays: 58 }),
    // Finished within the last day: kept.
    ...jobRows({ count: settings.kept, shares, newestAt: now - 3600_000, spanDays: 0.9, seed: 0x6b6570 }),
  ];
  const started = performance.now();
  const seeded = await seedSqliteHistory(dataDir, { jobs, settings: { job_retention_days: 1 } });
  log(`jobs.purge: seeded ${seeded.jobCount} finished jobs in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const plan = await purgePlan(seeded.file, new Date(now - dayMs).toISOString());
  const sortsAll = plan.plan.some((line) => /USE TEMP B-TREE/.test(line));
  log(
    [
      `jobs.purge batch: ${plan.sql.replace(/\s+/g, ' ')}  -- ${JSON.stringify(plan.parameters)}`,
      ...plan.plan.map((line) => `    ${line}`),
      ...(sortsAll ? ['    SORTS EVERY EXPIRED JOB FOR EACH BATCH (temp b-tree): the batch is not a walk of the finished_at index'] : []),
    ].join('\n'),
  );

  const port = await freePort();
  const env = serverEnv({ dataDir, port, adminPassword: randomBytes(12).toString('hex'), logLevel: 'warn' });
  const child = spawnChild(process.execPath, [...serveNodeFlags, '--import', loopProbe, cliMain, 'serve'], { env, ipc: true });
  const watcher = new BetterSqlite3(seeded.file, { readonly: true });
  const count = watcher.prepare('select count(*) as n from jobs');
  try {
    const origin = `http://127.0.0.1:${port}`;
    await waitForHttp(`${origin}/healthz`, child);
    await ask(child, 'reset');
    const atReset = count.get().n;
    const stopProbe = healthProbe(origin);
    let purgeStarted;
    let purgeEnded;
    const deadline = performance.now() + settings.timeoutMs;
    for (;;) {
      const n = count.get().n;
      if (purgeStarted === undefined && n < total) purgeStarted = performance.now();
      if (n <= settings.kept) {
        purgeEnded = performance.now();
        break;
      }
      if (performance.now() > deadline) throw new Error(`the purge left ${n} jobs after ${settings.timeoutMs} ms`);
      await sleep(settings.pollMs);
    }
    const healthzMaxMs = await stopProbe();
    const during = await ask(child, 'read');
    const left = count.get().n;
    if (left !== settings.kept) throw new Error(`the purge left ${left} jobs, want the ${settings.kept} finished within the retention`);
    const seconds = (purgeEnded - (purgeStarted ?? purgeEnded)) / 1000;

    // The same server idle for as long: the floor of the loop delay on this machine now.
    await ask(child, 'reset');
    await sleep(Math.max(1000, seconds * 1000));
    const idle = await ask(child, 'read');

    record('jobs.purge_loop_delay_max_ms', during.loopDelayMaxMs, 'ms');
    record('jobs.purge_loop_delay_p99_ms', during.loopDelayP99Ms, 'ms');
    record('jobs.purge_idle_loop_delay_max_ms', idle.loopDelayMaxMs, 'ms');
    record('jobs.purge_seconds', seconds, 's');
    record('jobs.purge_rows_per_s', settings.expired / seconds, 'rows/s');
    record('jobs.purge_healthz_max_ms', healthzMaxMs, 'ms');
    targets['jobs.purge_loop_delay_max_ms'] = { op: '<', value: hostileGoals.loopDelayMaxMs };
    notes.push(
      `jobs.purge: ${settings.expired} jobs finished 2-60 days ago and ${settings.kept} within the day (kept, checked), job_retention_days = 1, SQLite; \`dms serve\` with loop-probe.mjs (monitorEventLoopDelay, 10 ms resolution) purges them in its first housekeeping round, 2 s after start; the loop-delay window opens when /healthz first answers (${atReset === total ? 'before the first delete' : `AFTER THE PURGE HAD BEGUN: ${total - atReset} rows gone already`}) and closes when the bench, polling count(*) every ${settings.pollMs} ms on a read-only connection, sees only the kept rows; jobs.purge_seconds from the first row seen gone to the last (±${settings.pollMs} ms); /healthz probed every 50 ms beside it; idle: the same server afterwards for as long, the floor; a batch's plan (printed above the table): ${plan.plan.map((line) => line.trim()).join(' / ')}${sortsAll ? ' — it sorts every expired job for each batch of 500' : ''}`,
    );
    log(
      `jobs.purge: ${settings.expired} rows in ${round(seconds, 2)} s, loop delay max ${round(during.loopDelayMaxMs, 1)} ms (idle ${round(idle.loopDelayMaxMs, 1)} ms), /healthz max ${round(healthzMaxMs, 1)} ms`,
    );
  } finally {
    watcher.close();
    await stopChild(child, 5000);
  }
}
