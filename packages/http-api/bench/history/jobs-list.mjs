// jobs.list (issue 22): GET /api/v2/jobs over 100,000 stored jobs, five lists a Jobs screen
// asks for, p99 at 4 connections beside the floor of the same run (an authenticated
// GET /nas_shares/{id} on the same server), and the plan of each list's page and count
// statements as the store runs them: a plan that reads the whole jobs table prints NOT ON AN INDEX.
import { randomBytes } from 'node:crypto';
import { listDefaults } from '@dms/core';
import { makeTempDir, request, round, sleep } from '../lib.mjs';
import { runCli, serverEnv, startServer } from '../server.mjs';
import { createBenchDatabase } from '../pg-bench.mjs';
import { jobRows, seedPostgresHistory, seedSqliteHistory } from './seed-jobs.mjs';
import { captureStatements, explainStatements, rawQuery, withCore } from './statement-plans.mjs';
import { alternatedLatency, latencySummary } from './latency.mjs';

const dayMs = 24 * 3600_000;
export const jobsListGoalMs = 20;

const settings = (quick) => ({
  jobs: 100_000,
  spanDays: 60,
  /** Keeps all 60 days: with the default 30 the server's first housekeeping round would purge half the jobs under the load. */
  retentionDays: 90,
  /** The newest jobs queued or working when the server starts (it fails or runs them first). */
  unfinished: 60,
  load: { connections: 4, rounds: quick ? 1 : 3, duration: quick ? 2 : 3, warmup: quick ? 0.5 : 1 },
  /** One connection: each answer's own time, no queueing behind the other connections' (the server is one thread). */
  single: { connections: 1, rounds: 1, duration: quick ? 1 : 3, warmup: quick ? 0.5 : 1 },
});

/** Query strings as a client sends them, and which stored jobs each should count. */
function listCases(seeded, newestAt) {
  const share = seeded.shares[7];
  const since = new Date(newestAt - 30 * dayMs).toISOString();
  return {
    newest: { query: '', matches: () => true },
    deep_page: { query: 'offset=50000', matches: () => true, offset: 50_000 },
    failed_scans: { query: 'status=failed&kind=share_scan', matches: (job) => job.status === 'failed' && job.kind === 'share_scan' },
    one_share: { query: `nas_share_id=${share.id}`, matches: (job) => job.share_id === share.id },
    requester_by_finish: {
      query: `requester=alice&sort_by=${encodeURIComponent('finished_at:desc')}&created_at=${encodeURIComponent(`>=${since}`)}`,
      matches: (job) => job.requester === 'alice' && job.created_at >= since,
      check: (page) => {
        const finished = page.jobs.map((job) => job.finished_at ?? '');
        if (finished.some((at, i) => i > 0 && at > finished[i - 1])) return 'not sorted by finished_at descending';
        if (page.jobs.some((job) => job.requester !== 'alice' || job.created_at < since)) return 'a job outside the filter';
        return undefined;
      },
    },
  };
}

/** Calls of the core's list per case in the bench process, timed: the query's cost without HTTP. */
const inProcessCalls = 200;

/**
 * Opens the storage in this process and calls the core's list for each case: the statements
 * it runs (noted), and its time per call.
 */
async function listStatements(target, cases) {
  const { adapter } = target;
  return withCore(target, async (core, systemPrincipal) => {
    const out = {};
    for (const [name, listCase] of Object.entries(cases)) {
      const raw = rawQuery(listCase.query);
      await core.jobs.list(systemPrincipal, raw); // prepared and warm
      const statements = await captureStatements(adapter, () => core.jobs.list(systemPrincipal, raw));
      const times = [];
      for (let i = 0; i < inProcessCalls; i++) {
        const started = performance.now();
        await core.jobs.list(systemPrincipal, raw);
        times.push(performance.now() - started);
      }
      out[name] = { statements: statements.filter((statement) => /\bfrom "jobs"/.test(statement.sql)), inProcess: latencySummary(times) };
    }
    return out;
  });
}

/** Prints each case's page and count plans; resolves how many read the whole table. */
async function printPlans(target, statementsByCase, log) {
  let offIndex = 0;
  for (const [name, { statements }] of Object.entries(statementsByCase)) {
    const plans = await explainStatements({ ...target, table: 'jobs' }, statements);
    for (const plan of plans) {
      const role = /^select count\(\*\)/i.test(plan.sql.trim()) ? 'count' : 'page';
      const text = plan.sql.replace(/\s+/g, ' ').replace(/^select ("jobs"\."\w+", )+"jobs"\."\w+" from/, 'select <every column> from');
      const lines = [`${target.adapter} jobs.list ${name} ${role}: ${text}  -- ${JSON.stringify(plan.parameters)}`, ...plan.plan.map((line) => `    ${line}`)];
      if (plan.wholeTable) {
        offIndex += 1;
        lines.push(`    NOT ON AN INDEX: '${plan.wholeTable.trim()}' reads every row of jobs`);
      }
      log(lines.join('\n'));
    }
  }
  return offIndex;
}

/** Waits until the server has run or failed the seeded unfinished jobs (the list is then still). */
async function untilSettled(base, headers, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  const url = `${base}/jobs?status=${encodeURIComponent('><queued|working')}&limit=1`;
  for (;;) {
    const res = await request(url, { headers });
    if (res.status === 404) throw new Error(`GET /api/v2/jobs answered 404: this build does not serve the job list (${res.body.slice(0, 200)})`);
    if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${res.body.slice(0, 300)}`);
    if (res.json().count === 0) return;
    if (Date.now() > deadline) throw new Error(`${res.json().count} jobs still queued or working after ${timeoutMs} ms`);
    await sleep(100);
  }
}

/**
 * Each case answers 200 with the count the seeded rows give (the unfinished ones failed by now) and a
 * full page; past the page's end plus the count window, the count is that reach, a lower bound
 * (docs/decisions/186-history-list-counts.md).
 */
async function checkCases(base, headers, cases, rows) {
  for (const [name, listCase] of Object.entries(cases)) {
    const res = await request(`${base}/jobs${listCase.query ? `?${listCase.query}` : ''}`, { headers });
    if (res.status !== 200) throw new Error(`jobs.list ${name}: GET /jobs?${listCase.query} answered ${res.status}: ${res.body.slice(0, 300)}`);
    const page = res.json();
    const matching = rows.filter(listCase.matches).length;
    const want = Math.min(matching, (listCase.offset ?? 0) + 20 + listDefaults.historyCountWindow);
    const wantItems = Math.max(0, Math.min(20, matching - (listCase.offset ?? 0)));
    if (page.count !== want || page.jobs.length !== wantItems) {
      throw new Error(`jobs.list ${name}: count ${page.count} and ${page.jobs.length} jobs, want ${want} and ${wantItems}`);
    }
    const problem = listCase.check?.(page);
    if (problem) throw new Error(`jobs.list ${name}: ${problem}`);
  }
}

/**
 * The section on one adapter: `sqlite`, or `postgres` on a database of its own created on
 * `pgServerUrl`. Rows are prefixed `pg.` on PostgreSQL, as the rest of the bench's are.
 */
export async function jobsListBench({ adapter, pgServerUrl, quick, record, notes, log, targets }) {
  const config = settings(quick);
  const prefix = adapter === 'postgres' ? 'pg.' : '';
  const dataDir = makeTempDir('dms-bench-jobs-list-');
  const newestAt = Date.now();
  let rows;
  const jobs = (shares) => (rows = jobRows({ count: config.jobs, shares, newestAt, spanDays: config.spanDays, unfinished: config.unfinished }));
  let started = performance.now();
  const database = adapter === 'postgres' ? await createBenchDatabase(pgServerUrl) : undefined;
  try {
    const history = { jobs, settings: { job_retention_days: config.retentionDays } };
    const seeded = database ? await seedPostgresHistory(database.url, history) : await seedSqliteHistory(dataDir, history);
    log(
      `${prefix}jobs.list: seeded ${seeded.jobCount} jobs over ${seeded.shares.length} shares on ${adapter} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const target = { adapter, file: seeded.file, url: database?.url, dataDir };
    const cases = listCases(seeded, newestAt);

    const inProcess = await listStatements(target, cases);
    const offIndex = await printPlans(target, inProcess, log);
    const inProcessNote = `in the bench process, ${inProcessCalls} sequential core.jobs.list calls per case, p50/p99 ${Object.entries(inProcess)
      .map(([name, { inProcess: t }]) => `${name} ${round(t.p50)}/${round(t.p99)}`)
      .join(', ')} ms`;
    log(`${prefix}jobs.list: ${inProcessNote}`);
    record(`${prefix}jobs.list.plans_off_index`, offIndex, 'count');
    targets[`${prefix}jobs.list.plans_off_index`] = { op: '<=', value: 0 };

    const adminPassword = randomBytes(12).toString('hex');
    const extraEnv = database ? { DMS_DATABASE_URL: database.url, DMS_SECRET_KEY: randomBytes(32).toString('hex') } : {};
    const cliEnv = serverEnv({ dataDir, adminPassword, extraEnv });
    const keyOut = await runCli(
      ['apikey', 'create', '--name', 'bench-jobs', '--scope', 'jobs/index', '--scope', 'nas_shares/show', '--scope', 'nas_shares/index'],
      cliEnv,
    );
    const key = keyOut.trim().split('\n').at(-1).trim();
    const headers = { authorization: `Bearer ${key}` };
    const server = await startServer({ dataDir, adminPassword, logLevel: 'warn', label: `${adapter}-jobs-list`, extraEnv });
    try {
      started = performance.now();
      await untilSettled(server.base, headers);
      log(`${prefix}jobs.list: the ${config.unfinished} unfinished jobs settled in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      // What the server did with them: the seeded queued and working jobs are failed now.
      const settled = rows.map((job) => (job.status === 'queued' || job.status === 'working' ? { ...job, status: 'failed' } : job));
      await checkCases(server.base, headers, cases, settled);

      const loads = {
        show_floor: { paths: seeded.shares.map((share) => `/api/v2/nas_shares/${share.id}`) },
        ...Object.fromEntries(
          Object.entries(cases).map(([name, listCase]) => [name, { paths: [`/api/v2/jobs${listCase.query ? `?${listCase.query}` : ''}`] }]),
        ),
      };
      const measured = await alternatedLatency({ origin: server.origin, pid: server.pid, headers, loads, ...config.load });
      const single = await alternatedLatency({ origin: server.origin, pid: server.pid, headers, loads, ...config.single });
      const caseNames = Object.keys(cases);
      const worst = Math.max(...caseNames.map((name) => measured[name].p99));
      const floor = measured.show_floor.p99;
      record(`${prefix}jobs.list_p99_ms`, worst, 'ms');
      record(`${prefix}jobs.list.show_floor_p99_ms`, floor, 'ms');
      record(`${prefix}jobs.list_p99_ratio_vs_show`, worst / floor, 'ratio');
      for (const name of caseNames) record(`${prefix}jobs.list.${name}.p99_ms`, measured[name].p99, 'ms');
      record(`${prefix}jobs.list_p99_ms_c1`, Math.max(...caseNames.map((name) => single[name].p99)), 'ms');
      const worstCpu = Math.max(...caseNames.map((name) => measured[name].cpuUsPerAnswer));
      record(`${prefix}jobs.list_cpu_us_per_answer`, worstCpu, 'us');
      record(`${prefix}jobs.list_cpu_ratio_vs_show`, worstCpu / measured.show_floor.cpuUsPerAnswer, 'ratio');
      targets[`${prefix}jobs.list_p99_ms`] = { op: '<', value: jobsListGoalMs };
      const failures = [...Object.entries(measured), ...Object.entries(single)].filter(([, m]) => m.other > 0);
      const { connections, rounds, duration, warmup } = config.load;
      notes.push(
        `${prefix}jobs.list: ${config.jobs} jobs (${seeded.shares.length} shares on ${seeded.nasIds.length} NAS, 5 requesters, both kinds, created over ${config.spanDays} days, job_retention_days ${config.retentionDays}; the ${config.unfinished} newest seeded queued/working, failed by the server before measuring) on ${adapter}; GET /api/v2/jobs${caseNames.map((name) => ` ${name} '?${cases[name].query}'`).join(',')}; each answer checked (count, page); ${connections} connections, ${rounds} round(s) alternated of ${warmup} s warm-up + ${duration} s per load, every answer timed (µs), pooled; p99 by case ${caseNames.map((name) => `${name} ${round(measured[name].p99)} ms`).join(', ')}; p50 by case ${caseNames.map((name) => `${name} ${round(measured[name].p50)}`).join(', ')} ms; floor: GET /nas_shares/{id} over the ${seeded.shares.length} shares, same key, p99 ${round(floor)} ms p50 ${round(measured.show_floor.p50)} ms; jobs.list_p99_ms is the worst case; at 1 connection (${config.single.duration} s per load, jobs.list_p99_ms_c1 the worst) p50/p99 ${caseNames.map((name) => `${name} ${round(single[name].p50)}/${round(single[name].p99)}`).join(', ')} ms, floor ${round(single.show_floor.p50)}/${round(single.show_floor.p99)} ms; the server's CPU per answer (/proc, over the 4-connection runs${adapter === 'postgres' ? "; PostgreSQL's own not counted" : ''}) ${caseNames.map((name) => `${name} ${Math.round(measured[name].cpuUsPerAnswer)}`).join(', ')} µs, floor ${Math.round(measured.show_floor.cpuUsPerAnswer)} µs; plans (page and count statement of each case, as the store ran them) printed above the table, ${offIndex} read the whole table; ${inProcessNote}${failures.length ? `; NON-2XX/ERRORS: ${failures.map(([name, m]) => `${name} ${m.other}`).join(', ')}` : ''}`,
      );
      log(`${prefix}jobs.list: p99 ${caseNames.map((name) => `${name} ${round(measured[name].p99)}`).join(', ')} ms; floor ${round(floor)} ms`);
    } finally {
      await server.stop();
    }
  } finally {
    await database?.drop();
  }
}
