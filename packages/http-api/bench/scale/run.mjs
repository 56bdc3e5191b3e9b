// The scale section of the bench (issue 48): `npm run bench -- --scale [--scale-size small]`
// (or `node bench/scale/run.mjs [--scale-size small|full] [--seed-only] [--db sqlite|postgres]
// [--pg-url URL]` after a build; BENCH_SCALE_SIZE too; --seed-only stops after the seed, the
// plans and the count costs). A site at its real size (counts.mjs: 500 NAS, 10,000 local shares,
// 1 M finished jobs, 10 M audit events, 90 days of scans with analytics, 20 schedules, 50 open
// alerts; the rows: site-rows.mjs) is seeded straight into SQLite (site-sqlite.mjs, seed.mjs), or
// with --db postgres into a PostgreSQL database of its own, dropped at the end (site-postgres.mjs,
// seed-postgres.mjs; on the server of --pg-url, else DMS_BENCH_PG_URL, else the local one; the
// rows are then named pg.scale.*), then the real server (`dms serve`, loop-probe.mjs preloaded
// for its event-loop delay) answers: the capacity statistics, audit and job lists, /metrics,
// an hourly test schedule over every share (shows and lists timed meanwhile), the retention
// purge of a day of audit events; then its RSS and the database's bytes per share-year. Prints
// the rows with their goals and merges them into bench/results.json (scale.* rows replaced).
import { randomBytes } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cannon, freePort, makeTempDir, processMemory, request, round, sleep, spawnChild, stopChild, waitForHttp, withBudget } from '../lib.mjs';
import { mergeResults, printResults } from '../report.mjs';
import { assertBuilt, cliMain, serveNodeFlags, serverEnv } from '../server.mjs';
import { defaultPgServerUrl } from '../pg-bench.mjs';
import { auditSpanDays, bytesPerShareYear, jobSpanDays, scaleCounts } from './counts.mjs';
import { ask } from '../history/purge-stall.mjs';
import { planLines } from './plans.mjs';
import { postgresSite } from './site-postgres.mjs';
import { sqliteSite } from './site-sqlite.mjs';

const benchDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const loopProbe = join(benchDir, 'hostile', 'loop-probe.mjs');
const resultsFile = join(benchDir, 'results.json');
const dayMs = 24 * 3600_000;

/** The goals of issue 48. */
const sqliteGoals = {
  'scale.hourly_tests_minutes': { op: '<', value: 20 },
  'scale.show_p99_ms_during_tests': { op: '<', value: 20 },
  'scale.list_p99_ms_during_tests': { op: '<', value: 50 },
  'scale.loop_delay_max_ms': { op: '<', value: 100 },
  'scale.capacity_statistics_ms': { op: '<', value: 200 },
  'scale.audit_list_p99_ms': { op: '<', value: 100 },
  'scale.jobs_list_p99_ms': { op: '<', value: 50 },
  'scale.metrics_scrape_ms': { op: '<', value: 100 },
  'scale.retention_purge_loop_delay_max_ms': { op: '<', value: 100 },
  'scale.rss_mb': { op: '<=', value: 200 },
};

function parseArgs(argv) {
  const options = { size: process.env.BENCH_SCALE_SIZE || 'full', db: 'sqlite', pgUrl: process.env.DMS_BENCH_PG_URL || defaultPgServerUrl };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].startsWith('--') && argv[i].includes('=') ? argv[i].split(/=(.*)/s) : [argv[i], undefined];
    const value = () => inline ?? argv[++i];
    if (flag === '--scale-size') options.size = value();
    else if (flag === '--db') options.db = value();
    else if (flag === '--pg-url') options.pgUrl = value();
    else if (flag === '--seed-only') options.seedOnly = true;
    else if (flag === '--scale') continue;
    else throw new Error(`bench scale: unknown argument '${argv[i]}' (known: --scale-size full|small, --seed-only, --db sqlite|postgres, --pg-url URL)`);
  }
  if (options.db !== 'sqlite' && options.db !== 'postgres') throw new Error(`bench scale: --db must be sqlite or postgres, got '${options.db}'`);
  options.counts = scaleCounts(options.size);
  return options;
}

const args = parseArgs(process.argv.slice(2));
const counts = args.counts;
// On PostgreSQL the rows are named pg.scale.*, their goals the same.
const prefix = args.db === 'postgres' ? 'pg.' : '';
const goals = Object.fromEntries(Object.entries(sqliteGoals).map(([name, goal]) => [prefix + name, goal]));
// PostgreSQL's seed takes longer than SQLite's (rows over the wire, its indexes built after).
const budgetMs = args.db === 'postgres' ? 2_700_000 : 1_800_000;
const results = [];
const notes = [];
const record = (name, value, unit) => {
  results.push({ name: prefix + name, value: round(value, 2), unit });
  log(`${prefix}${name} = ${round(value, 2)} ${unit}`);
};
const t0 = performance.now();
const log = (message) =>
  process.stderr.write(`[bench scale +${((performance.now() - t0) / 1000).toFixed(1)}s ${new Date().toISOString().slice(11, 23)}] ${message}\n`);
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

function report() {
  // --seed-only takes a few rows: the goals of the others are not shown as missed.
  const shown = args.seedOnly ? Object.fromEntries(Object.entries(goals).filter(([name]) => results.some((r) => r.name === name))) : goals;
  printResults(results, shown, notes);
  mergeResults(resultsFile, results);
  console.log(`\nmerged ${results.length} rows into ${resultsFile} (bench scale took ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
}

/** A request that must answer 200; its time in ms and its JSON. */
async function timedGet(url, headers) {
  const started = performance.now();
  const res = await request(url, { headers });
  const ms = performance.now() - started;
  if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${res.body.slice(0, 300)}`);
  return { ms, res };
}

/** autocannon over `paths` at `connections`; fails on any non-2xx. */
async function load4(origin, paths, headers, duration, connections = 4) {
  const result = await cannon({ url: origin, connections, duration, headers, paths });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${paths[0]}…: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return result;
}

const dtstart = (date) =>
  date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z');

async function main() {
  assertBuilt();
  notes.push(
    `scale (${args.size === 'full' ? 'full size' : 'REDUCED SIZE: counts / 100'}): ${counts.nas} NAS, ${counts.shares} local shares, ${counts.pools} pools, ${counts.jobs} finished jobs over ${jobSpanDays} days, ${counts.auditEvents} audit events over ${auditSpanDays} days, ${counts.scanDays} days of scans (with analytics and capacity readings) per share, ${counts.schedules} schedules, ${counts.openAlerts} open alerts; ${args.db === 'postgres' ? 'PostgreSQL (a database of its own, ANALYZEd after the seed as autovacuum would soon)' : 'SQLite'}; ${availableParallelism()} CPUs, Node ${process.version}, load average at start ${load()}`,
  );
  const dataDir = makeTempDir('dms-bench-scale-');
  const now = Date.now();
  const seedStarted = performance.now();
  const site = args.db === 'postgres' ? await postgresSite(args.pgUrl, dataDir, counts, { now, log }) : await sqliteSite(dataDir, counts, { now, log });
  try {
    record('scale.seed_s', (performance.now() - seedStarted) / 1000, 's');
    notes.push(
      `scale.seed_s on ${site.name}: ${Object.entries(site.took)
        .map(([what, s]) => `${what} ${round(s, 1)} s`)
        .join(', ')}`,
    );
    await measure(site, dataDir, now);
  } finally {
    await site.drop();
  }
}

async function measure(site, dataDir, now) {
  // Audit list: by actor, resource, time, and deep pages; jobs likewise.
  const auditPaths = [
    '/api/v2/audit_events?actor=alice',
    '/api/v2/audit_events?resource_type=nas_share&resource_id=42',
    `/api/v2/audit_events?at=${encodeURIComponent('>=' + iso(now - 30 * dayMs))}&at=${encodeURIComponent('<' + iso(now - 29 * dayMs))}`,
    '/api/v2/audit_events?limit=100&offset=5000',
    '/api/v2/audit_events?actor=bob&page=50&per_page=100',
    '/api/v2/audit_events?action=delete&limit=100',
  ];
  const jobsPaths = [
    '/api/v2/jobs',
    '/api/v2/jobs?requester=alice',
    '/api/v2/jobs?nas_share_id=42',
    '/api/v2/jobs?status=failed&kind=share_scan',
    '/api/v2/jobs?limit=100&offset=2000',
  ];
  const plans = await site.plans([
    { table: 'audit_events', list: 'auditEvents', paths: auditPaths },
    { table: 'jobs', list: 'jobs', paths: jobsPaths },
  ]);
  log(['plans of the list statements:', ...plans.flatMap(planLines)].join('\n'));
  const offIndex = plans.filter((plan) => plan.wholeTable);
  record('scale.list_statements_off_index', offIndex.length, 'count');
  const countCost = await site.countCosts(plans);
  record(site.countCostName, Math.max(...countCost.map((c) => c.ms)), 'ms');
  notes.push(
    `scale lists: ${plans.length} statements explained (printed above the table), ${offIndex.length} read a whole table${offIndex.length ? `: ${offIndex.map((plan) => plan.path).join(', ')}` : ''}; ` +
      `each answer's count statement visits its matches up to the page's end plus 10,000 (decision 186; 'rows' is what it answered): ${site.countCostWhat}: ${countCost.map((c) => `${c.path} ${c.rows} rows ${round(c.ms, 1)} ms`).join(', ')}`,
  );
  if (args.seedOnly) return;

  const adminPassword = randomBytes(12).toString('hex');
  const port = await freePort();
  const env = serverEnv({ dataDir, port, adminPassword, logLevel: 'warn', localRoots: site.sharesRoot, extraEnv: site.serverEnv });
  const child = spawnChild(process.execPath, [...serveNodeFlags, '--import', loopProbe, cliMain, 'serve'], { env, ipc: true });
  await site.open();
  try {
    const origin = `http://127.0.0.1:${port}`;
    const base = `${origin}/api/v2`;
    // At start the server checks the whole file (quick_check): minutes on a site at scale, a row of its own.
    const startedAt = performance.now();
    await waitForHttp(`${origin}/healthz`, child, 900_000);
    record('scale.start_s', (performance.now() - startedAt) / 1000, 's');
    let token;
    for (let attempt = 0; !token; attempt++) {
      const res = await request(`${base}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: adminPassword }),
      });
      if (res.status === 200) token = res.json().token;
      else if (attempt > 100) throw new Error(`POST /auth/login answered ${res.status}: ${res.body.slice(0, 200)}`);
      else await sleep(100);
    }
    const headers = { authorization: `Bearer ${token}` };

    // Capacity statistics over 90 days: a warm-up, then the median of 5.
    await timedGet(`${base}/statistics/capacity?days=90`, headers);
    const capacity = [];
    for (let i = 0; i < 5; i++) capacity.push((await timedGet(`${base}/statistics/capacity?days=90`, headers)).ms);
    capacity.sort((a, b) => a - b);
    record('scale.capacity_statistics_ms', capacity[2], 'ms');

    const auditP99 = await listP99('audit', auditPaths, origin, headers);
    record('scale.audit_list_p99_ms', auditP99, 'ms');

    record('scale.jobs_list_p99_ms', await listP99('jobs', jobsPaths, origin, headers), 'ms');

    await timedGet(`${origin}/metrics`, headers);
    const scrapes = [];
    for (let i = 0; i < 5; i++) scrapes.push((await timedGet(`${origin}/metrics`, headers)).ms);
    scrapes.sort((a, b) => a - b);
    record('scale.metrics_scrape_ms', scrapes[2], 'ms');

    await hourlyTests({ base, origin, headers, child, site });
    await retentionPurge({ base, headers, child, site });

    record('scale.rss_mb', processMemory(child.pid).rssMb, 'MB');
    record('scale.db_bytes_per_share_year', await dbBytesPerShareYear(site), 'B');
  } finally {
    await site.close();
    await stopChild(child, 5000);
  }
}

const iso = (ms) => new Date(ms).toISOString();

/** Each path answered 200 once (its count logged), then all of them cycled at 4 connections for 5 s: the p99. */
async function listP99(what, paths, origin, headers) {
  for (const path of paths) {
    const { ms, res } = await timedGet(origin + path, headers);
    log(`${what}: ${path} → count ${res.json().count} in ${ms.toFixed(1)} ms`);
  }
  const result = await load4(origin, paths, headers, 5);
  return result.latency.p99;
}

/**
 * An hourly `test` schedule of every share, its first run a little after it is created; shows
 * and lists timed at 4 connections each meanwhile, in windows of 10 s (the worst window's p99
 * is the row), the server's loop delay over the whole run; done when every job of the run finished.
 */
async function hourlyTests({ base, origin, headers, child, site }) {
  const firstRun = new Date(Math.ceil((Date.now() + 45_000) / 60_000) * 60_000);
  const tomorrow = new Date(Math.ceil(Date.now() / dayMs) * dayMs + 3 * 3600_000);
  const post = async (body) => {
    const res = await request(`${base}/schedules`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (res.status !== 201) throw new Error(`POST /schedules answered ${res.status}: ${res.body.slice(0, 300)}`);
    return res.json();
  };
  const hourly = await post({
    name: 'hourly tests of every share',
    action: 'test',
    all_shares: true,
    rrule: `DTSTART:${dtstart(firstRun)}\nRRULE:FREQ=HOURLY`,
  });
  const scheduleId = (hourly.schedule ?? hourly).id;
  for (let n = 1; n < counts.schedules; n++) {
    await post({
      name: `nightly scan of filer ${n}`,
      action: 'scan',
      nas_id: 1 + ((n - 1) % counts.nas),
      rrule: `DTSTART:${dtstart(new Date(tomorrow.getTime() + n * 60_000))}\nRRULE:FREQ=DAILY`,
    });
  }
  log(`hourly tests: first run at ${firstRun.toISOString()} (${counts.shares} shares), load average ${load()}`);
  // The idle server's loop delay until the run is due: the floor the machine gives now.
  await ask(child, 'reset');
  while (Date.now() < firstRun.getTime() - 1000) await sleep(200);
  record('scale.idle_loop_delay_max_ms', (await ask(child, 'read')).loopDelayMaxMs, 'ms');
  await ask(child, 'reset');
  const showPaths = Array.from({ length: 200 }, (_, i) => `/api/v2/nas_shares/${1 + ((i * 37) % counts.shares)}`);
  const listPaths = ['/api/v2/nas_shares?limit=20', '/api/v2/nas_shares?name=~share-00%25', '/api/v2/jobs?limit=20', '/api/v2/alerts'];
  const showP99 = [];
  const listP99s = [];
  const deadline = Date.now() + 40 * 60_000;
  for (;;) {
    const { n } = await site.finishedJobs(scheduleId);
    if (n >= counts.shares) break;
    if (Date.now() > deadline) throw new Error(`hourly tests: ${n} of ${counts.shares} finished after 40 minutes`);
    const [show, list] = await Promise.all([load4(origin, showPaths, headers, 10), load4(origin, listPaths, headers, 10)]);
    showP99.push(show.latency.p99);
    listP99s.push(list.latency.p99);
    log(
      `hourly tests: ${(await site.finishedJobs(scheduleId)).n} of ${counts.shares} finished; show p99 ${show.latency.p99} ms, list p99 ${list.latency.p99} ms; load ${load()}`,
    );
  }
  const during = await ask(child, 'read');
  const { last } = await site.finishedJobs(scheduleId);
  record('scale.hourly_tests_minutes', (Date.parse(last) - firstRun.getTime()) / 60_000, 'min');
  record('scale.show_p99_ms_during_tests', Math.max(...showP99), 'ms');
  record('scale.list_p99_ms_during_tests', Math.max(...listP99s), 'ms');
  record('scale.loop_delay_max_ms', during.loopDelayMaxMs, 'ms');
  notes.push(
    `scale.hourly_tests: ${counts.shares} local shares, one hourly all_shares test schedule (default job bounds) from its due time to the last job finished (${await site.failedJobs(scheduleId)} failed); meanwhile GET /nas_shares/{id} and lists (${listPaths.join(', ')}) at 4 connections each, in ${showP99.length} windows of 10 s: the worst window's p99 (show ${showP99.map((v) => round(v, 1)).join(' / ')}; list ${listP99s.map((v) => round(v, 1)).join(' / ')}); the server's loop delay (monitorEventLoopDelay, 10 ms resolution) max over the run, p99 ${round(during.loopDelayP99Ms, 1)} ms`,
  );
}

/** audit_retention_days lowered by one: the next housekeeping round (each minute) deletes a day of the audit events; the loop delay meanwhile. */
async function retentionPurge({ base, headers, child, site }) {
  // The oldest day of the seeded year: older than the retention the bench sets.
  const retentionDays = auditSpanDays - 1;
  const cutoff = iso(Date.now() - retentionDays * dayMs);
  const toGo = await site.auditEventsBefore(cutoff);
  await ask(child, 'reset');
  const res = await request(`${base}/settings`, {
    method: 'PUT',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ audit_retention_days: retentionDays }),
  });
  if (res.status !== 200) throw new Error(`PUT /settings answered ${res.status}: ${res.body.slice(0, 300)}`);
  const started = performance.now();
  const deadline = started + 180_000;
  for (let left = toGo; left > 0; left = await site.auditEventsBefore(cutoff)) {
    if (performance.now() > deadline) throw new Error(`retention: ${left} of ${toGo} expired audit events left after 180 s`);
    await sleep(50);
  }
  const during = await ask(child, 'read');
  record('scale.retention_purge_loop_delay_max_ms', during.loopDelayMaxMs, 'ms');
  record('scale.retention_purged_rows', toGo, 'rows');
  notes.push(
    `scale.retention_purge: audit_retention_days lowered from 365 to ${retentionDays} (PUT /settings); the next housekeeping round deleted the ${toGo} events of more than a day; loop delay max over the change and the purge (≤ 1 minute of idle before it included)`,
  );
}

/** Bytes the per-share history takes in a year at this rate: each history table over the days it spans. */
async function dbBytesPerShareYear(site) {
  const { parts, whole, note } = await site.historyBytes();
  if (!parts) {
    notes.push(`scale.db_bytes_per_share_year: ${note}`);
    return whole / counts.shares;
  }
  notes.push(
    `scale.db_bytes_per_share_year: ${note}, scaled to a year each and over the shares: ${parts.map((p) => `${p.table} ${(p.bytes / 1e6).toFixed(1)} MB over ${p.spanDays} d`).join(', ')}`,
  );
  return bytesPerShareYear({ shares: counts.shares, parts });
}

await withBudget({ budgetMs, main, report, notes, log });
