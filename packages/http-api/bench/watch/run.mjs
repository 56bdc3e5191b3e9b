// The keep-watch section of the bench (issue 23): `node bench/watch/run.mjs [--db postgres]
// [--pg-url URL] [--shares N] [--runs N]` after a build; `npm run bench` runs it after the
// history section (scripts/bench.mjs). What the scheduler costs with 10,000 local shares on a
// 1-minute `test` schedule: the run's planning (the tick to the run's claim) and the loop
// delay meanwhile, the jobs per second it sustains under the job bounds against a plain loop of
// `core.jobs.testSaved` under the same bounds (and without them: the workers' own pace), and
// the loop delay of the idle service for reference. Each measurement runs `--runs` times (3;
// the machine may be shared) on a fresh service; the rows are medians. With --db postgres the
// same on PostgreSQL too (pg.* rows). Prints a table and merges its rows into
// bench/results.json: rows of the same names are replaced, the others kept.
import { mergeResults, printResults } from '../report.mjs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { round, withBudget } from '../lib.mjs';
import { defaultPgServerUrl } from '../pg-bench.mjs';
import { sqliteCommitFloor } from './commit-floor.mjs';
import { directRun, scheduledRun } from './scheduled-run.mjs';

function parseArgs(argv) {
  const quick = process.env.BENCH_QUICK === '1';
  const options = { db: 'sqlite', pgUrl: process.env.DMS_BENCH_PG_URL || defaultPgServerUrl, shares: quick ? 2_000 : 10_000, runs: quick ? 1 : 3 };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].startsWith('--') && argv[i].includes('=') ? argv[i].split(/=(.*)/s) : [argv[i], undefined];
    const value = () => inline ?? argv[++i];
    if (flag === '--db') options.db = value();
    else if (flag === '--pg-url') options.pgUrl = value();
    else if (flag === '--shares') options.shares = Number(value());
    else if (flag === '--runs') options.runs = Number(value());
    else throw new Error(`bench watch: unknown argument '${argv[i]}' (known: --db sqlite|postgres, --pg-url URL, --shares N, --runs N)`);
  }
  if (options.db !== 'sqlite' && options.db !== 'postgres') throw new Error(`bench watch: --db must be sqlite or postgres, got '${options.db}'`);
  for (const name of ['shares', 'runs']) {
    if (!Number.isInteger(options[name]) || options[name] < 1) throw new Error(`bench watch: --${name} must be a whole number of at least 1`);
  }
  return options;
}

const args = parseArgs(process.argv.slice(2));
const adapters = args.db === 'postgres' ? ['sqlite', 'postgres'] : ['sqlite'];
const resultsFile = join(dirname(fileURLToPath(import.meta.url)), '..', 'results.json');
const budgetMs = 3_600_000;
/** Issue 23's bound: the loop stays responsive while the scheduler plans a run. */
const planLoopDelayMaxMs = 100;

const results = [];
const notes = [];
const targets = {};
const record = (name, value, unit) => results.push({ name, value: round(value, unit === 'ratio' ? 3 : 2), unit });
const t0 = performance.now();
const log = (message) => process.stderr.write(`[bench watch +${((performance.now() - t0) / 1000).toFixed(1)}s] ${message}\n`);
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

/** The table, then this run's rows merged into results.json (a row of the same name replaced). */
function report() {
  printResults(results, targets, notes);
  mergeResults(resultsFile, results);
  console.log(`\nmerged ${results.length} rows into ${resultsFile} (bench watch took ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
}

/**
 * A run that did not do all its jobs, or did them as someone else, measured nothing. A schedule's
 * run is one audit event of the scheduler's, written when it claims the run; its jobs have none
 * of their own (docs/decisions/107-schedules-act-with-their-creators-rights.md).
 */
function checkRun(what, run) {
  const problems = [];
  if (run.failed > 0) problems.push(`${run.failed} jobs failed`);
  if (run.queuedBy && JSON.stringify(run.queuedBy) !== JSON.stringify({ scheduler: 1 }))
    problems.push(`audit events ${JSON.stringify(run.queuedBy)}, not the scheduler's one for the run`);
  if (problems.length) throw new Error(`${what}: ${problems.join('; ')}`);
}

const fmt = (values, digits = 1) => values.map((v) => v.toFixed(digits)).join(' / ');

async function measure(adapter) {
  const prefix = adapter === 'postgres' ? 'pg.' : '';
  const options = { adapter, pgServerUrl: args.pgUrl, shares: args.shares, log };
  const scheduled = [];
  const direct = [];
  const loads = [];
  for (let run = 0; run < args.runs; run++) {
    // Alternated, so a change in the machine's other load hits both alike.
    for (const kind of run % 2 === 0 ? ['scheduled', 'direct'] : ['direct', 'scheduled']) {
      loads.push(`${kind} ${run + 1}: ${load()}`);
      log(`${adapter}: ${kind} run ${run + 1} of ${args.runs} (${args.shares} shares), load average ${load()}`);
      if (kind === 'scheduled') {
        const result = await scheduledRun(options);
        checkRun(`${adapter} scheduled run ${run + 1}`, result);
        scheduled.push(result);
        log(
          `${adapter}: scheduled ${result.jobsPerS.toFixed(1)} jobs/s, plan ${result.planMs.toFixed(1)} ms, loop delay max ${result.wholeDelay.maxMs.toFixed(0)} ms`,
        );
      } else {
        const result = await directRun(options);
        checkRun(`${adapter} direct run ${run + 1}`, result);
        direct.push(result);
        log(`${adapter}: direct ${result.jobsPerS.toFixed(1)} jobs/s, loop delay max ${result.delay.maxMs.toFixed(0)} ms`);
      }
    }
  }
  log(`${adapter}: direct run without bounds, load average ${load()}`);
  const unbounded = await directRun({ ...options, unbounded: true });
  checkRun(`${adapter} direct run without bounds`, unbounded);

  const m = (pick, from = scheduled) => median(from.map(pick));
  record(`${prefix}scheduler.shares`, args.shares, 'count');
  record(
    `${prefix}scheduler.plan_ms`,
    m((r) => r.planMs),
    'ms',
  );
  record(
    `${prefix}scheduler.tick_ms`,
    m((r) => r.tickMs),
    'ms',
  );
  record(
    `${prefix}scheduler.plan_loop_delay_max_ms`,
    m((r) => r.planDelay.maxMs),
    'ms',
  );
  targets[`${prefix}scheduler.plan_loop_delay_max_ms`] = { op: '<', value: planLoopDelayMaxMs };
  record(
    `${prefix}scheduler.jobs_per_s`,
    m((r) => r.jobsPerS),
    'jobs/s',
  );
  record(
    `${prefix}scheduler.run_s`,
    m((r) => r.runS),
    's',
  );
  record(
    `${prefix}scheduler.loop_delay_max_ms`,
    m((r) => r.wholeDelay.maxMs),
    'ms',
  );
  record(
    `${prefix}scheduler.loop_delay_p99_ms`,
    m((r) => r.wholeDelay.p99Ms),
    'ms',
  );
  record(
    `${prefix}scheduler.refused_per_run`,
    m((r) => r.refused),
    'count',
  );
  record(
    `${prefix}scheduler.direct_jobs_per_s`,
    m((r) => r.jobsPerS, direct),
    'jobs/s',
  );
  record(
    `${prefix}scheduler.direct_loop_delay_max_ms`,
    m((r) => r.delay.maxMs, direct),
    'ms',
  );
  record(
    `${prefix}scheduler.direct_loop_delay_p99_ms`,
    m((r) => r.delay.p99Ms, direct),
    'ms',
  );
  record(`${prefix}scheduler.jobs_per_s_ratio_vs_direct`, m((r) => r.jobsPerS) / m((r) => r.jobsPerS, direct), 'ratio');
  record(`${prefix}scheduler.unbounded_jobs_per_s`, unbounded.jobsPerS, 'jobs/s');
  record(
    `${prefix}scheduler.idle_loop_delay_max_ms`,
    m((r) => r.idle.maxMs),
    'ms',
  );
  record(
    `${prefix}scheduler.idle_loop_delay_p99_ms`,
    m((r) => r.idle.p99Ms),
    'ms',
  );

  notes.push(
    `${prefix}scheduler, per run (${args.runs}): jobs/s ${fmt(scheduled.map((r) => r.jobsPerS))} (direct ${fmt(direct.map((r) => r.jobsPerS))}); ` +
      `plan ${fmt(scheduled.map((r) => r.planMs))} ms, its loop delay max ${fmt(scheduled.map((r) => r.planDelay.maxMs))} ms; ` +
      `run loop delay max ${fmt(
        scheduled.map((r) => r.wholeDelay.maxMs),
        0,
      )} ms (feeding ${fmt(
        scheduled.map((r) => r.feedDelay.maxMs),
        0,
      )}), ` +
      `direct ${fmt(
        direct.map((r) => r.delay.maxMs),
        0,
      )} ms; idle ${fmt(scheduled.map((r) => r.idle.maxMs))} ms; ` +
      `refused ${scheduled.map((r) => r.refused).join(' / ')}; later occurrences skipped while a run went on ${scheduled.map((r) => r.schedule.skipped).join(' / ')}, missed ${scheduled.map((r) => r.schedule.missed).join(' / ')}`,
  );
  notes.push(
    `${prefix}scheduler, load average (1 5 15 min) at each start: ${loads.join('; ')}; without bounds: ${unbounded.jobsPerS.toFixed(1)} jobs/s, all queued in ${unbounded.queuedAllS.toFixed(1)} s`,
  );
}

async function main() {
  notes.push(
    `watch: ${availableParallelism()} CPUs, Node ${process.version}, load average at start ${load()}; the service runs in the bench's process ` +
      `(openDms, role service, the default 4 job workers and job bounds: 32 per requester, 256 in all), so the loop delay is the service's`,
  );
  const floor = sqliteCommitFloor();
  record('scheduler.sqlite_commit_ms', floor.medianMs, 'ms');
  notes.push(`watch: one durable SQLite commit (WAL, synchronous FULL) on this disk: median ${floor.medianMs.toFixed(2)} ms, p99 ${floor.p99Ms.toFixed(1)} ms`);
  for (const adapter of adapters) {
    try {
      await measure(adapter);
    } catch (error) {
      notes.push(`ERROR on ${adapter}: ${error instanceof Error ? error.message : String(error)}`);
      log(`${adapter}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      process.exitCode = 1;
    }
  }
}

await withBudget({ budgetMs, main, report, notes, log });
