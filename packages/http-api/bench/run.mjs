// dms benchmark (docs/performance.md): `npm run bench` at the root, or `node bench/run.mjs` in
// packages/http-api after a build. Prints a table and writes bench/results.json as
// [{ name, value, unit }]. Missed targets are reported, never turned into a failing exit code.
// `--db postgres` (`npm run bench -- --db postgres`) runs everything on SQLite as without it,
// then the pg.* measurements on PostgreSQL (pg-bench.mjs) on a database of its own, created
// on the server of `--pg-url URL` (else DMS_BENCH_PG_URL, else postgres://postgres@127.0.0.1:5432/postgres)
// and dropped at the end.
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTempDir, processCpuSeconds, processMemory, request, round, withBudget } from './lib.mjs';
import { seed } from './seed.mjs';
import { printResults } from './report.mjs';
import { assertBuilt, createApiKey, serverEnv, startBaseline, startContractFloor, startHonoFloor, startServer } from './server.mjs';
import { alternatedShow, checkList, checkShowBodies, listPath, throughput } from './http-bench.mjs';
import { engineThroughput, testJobLatency } from './jobs-bench.mjs';
import { apiScan, duSeconds, generateTree } from './scan-bench.mjs';
import { nfsScanBench } from './nfs-scan-bench.mjs';
import { localScanBench, localScanTargets } from './local-scan-bench.mjs';
import { remoteScanBench, remoteScanTargets } from './remote-scan-bench.mjs';
import { defaultPgServerUrl, postgresBench } from './pg-bench.mjs';
import { hostileBench } from './hostile/harness.mjs';
import { metricsBench, metricsTargets } from './metrics-bench.mjs';
import { faultsBench } from './faults.mjs';
import { shutdownBench } from './shutdown.mjs';
import { tracingBench, tracingTargets } from './tracing-bench.mjs';

function parseArgs(argv) {
  const options = { db: 'sqlite', pgUrl: process.env.DMS_BENCH_PG_URL || defaultPgServerUrl };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].startsWith('--') && argv[i].includes('=') ? argv[i].split(/=(.*)/s) : [argv[i], undefined];
    const value = () => inline ?? argv[++i];
    if (flag === '--db') options.db = value();
    else if (flag === '--pg-url') options.pgUrl = value();
    else throw new Error(`bench: unknown argument '${argv[i]}' (known: --db sqlite|postgres, --pg-url URL)`);
  }
  if (options.db !== 'sqlite' && options.db !== 'postgres') throw new Error(`bench: --db must be sqlite or postgres, got '${options.db}'`);
  return options;
}
const args = parseArgs(process.argv.slice(2));
const withPostgres = args.db === 'postgres';

const benchDir = dirname(fileURLToPath(import.meta.url));
const resultsFile = join(benchDir, 'results.json');
const quick = process.env.BENCH_QUICK === '1'; // shorter runs while editing the bench itself

const config = {
  shares: 100_000,
  showSet: 10_000,
  show: { connections: 32, rounds: quick ? 1 : 3, duration: quick ? 3 : 5, warmup: 1 },
  // One connection: the server is one thread, so with c connections in a closed loop p99 is
  // ~c x the service time (queueing). c=4 is reported too.
  list: { connections: 1, duration: quick ? 3 : 8, warmup: 1 },
  list4: { connections: 4, duration: quick ? 2 : 4, warmup: 0 },
  testJobs: quick ? 50 : 200,
  engineJobs: 2000,
  tree: { dirs: 200, files: 1000 },
  budgetMs: withPostgres ? 1_080_000 : 900_000,
};
// PostgreSQL: the same loads; the two-replica run alternates one and two replicas.
const pgConfig = {
  shares: config.shares,
  showSet: config.showSet,
  show: config.show,
  list: config.list,
  list4: config.list4,
  replicas: { connections: 32, rounds: quick ? 2 : 4, duration: quick ? 3 : 5, warmup: 1 },
  engineJobs: config.engineJobs,
  jobRounds: quick ? 1 : 3,
  cpus: availableParallelism(),
};

const targets = {
  'show.ratio': { op: '>=', value: 0.5 },
  'list.p99_ms': { op: '<', value: 20 },
  rss_mb: { op: '<=', value: 150 },
  'test_job.median_ms': { op: '<', value: 20 },
  // Through the API (the job and its polling included); scan.ratio_vs_du is the local driver's own.
  'scan.api.ratio_vs_du': { op: '<=', value: 2 },
  ...localScanTargets,
  ...metricsTargets,
  'faults.sqlite_lock.healthz_p99_ms': { op: '<', value: 50 },
  'faults.sqlite_lock.write_503_ms': { op: '<', value: 3000 },
  'shutdown.exit_s': { op: '<=', value: 10 },
  'shutdown.acknowledged_lost': { op: '<=', value: 0 },
  ...remoteScanTargets,
  ...tracingTargets,
  ...(withPostgres
    ? {
        'pg.show.ratio_vs_hono_floor': { op: '>=', value: 0.6 },
        'pg.list.p99_ms': { op: '<', value: 20 },
        'pg.jobs.per_s': { op: '>=', value: 1000 },
        'pg.two_replicas.rps_ratio': { op: '>=', value: 1.3 },
      }
    : {}),
};

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const results = [];
const notes = [];
const record = (name, value, unit) => results.push({ name, value: round(value, unit === 'ratio' ? 3 : 2), unit });
const t0 = performance.now();
const log = (message) => process.stderr.write(`[bench +${((performance.now() - t0) / 1000).toFixed(1)}s] ${message}\n`);

function report() {
  printResults(results, targets, notes);
  writeFileSync(resultsFile, JSON.stringify(results, null, 2) + '\n');
  console.log(`\nwrote ${resultsFile} (bench took ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
}

async function main() {
  assertBuilt();
  notes.push(
    `load average at start ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
  notes.push(
    `${availableParallelism()} CPUs, Node ${process.version}; autocannon runs in the bench process and shares the CPUs with the server under test (and with the baseline)${withPostgres ? '; in the pg.* runs PostgreSQL (same machine) shares them too, and pg.two_replicas runs its load in a process of its own' : ''}`,
  );

  // --- Data: 1 NAS + 100,000 shares seeded before start; a 200,000-file tree. ---
  const dataDir = makeTempDir('dms-bench-');
  const shareRoot = join(dataDir, 'shares');
  mkdirSync(join(shareRoot, 'testdir'), { recursive: true });
  // The tree goes on tmpfs where there is one: 200,000 creates on a slow disk take minutes
  // (du and the scan both run warm from the inode cache either way).
  const treeBase = existsSync('/dev/shm') ? makeTempDir('dms-bench-tree-', '/dev/shm') : join(dataDir, 'tree-root');
  const treeDir = join(treeBase, 'tree');
  let started = performance.now();
  const seeded = await seed(dataDir, { shares: config.shares, showCount: config.showSet });
  log(`seeded ${config.shares} shares in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  started = performance.now();
  const tree = generateTree(treeDir, config.tree);
  log(`generated ${tree.count} files (${tree.sum} bytes) under ${treeBase} in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const adminPassword = randomBytes(12).toString('hex');
  const localRoots = `${shareRoot}:${treeBase}`;
  const key = await createApiKey(serverEnv({ dataDir, adminPassword, localRoots }));
  const bearer = { authorization: `Bearer ${key}` };
  const basic = `Basic ${Buffer.from(`admin:${adminPassword}`).toString('base64')}`;
  const showPaths = seeded.showIds.map((id) => `/api/v2/nas_shares/${id}`);

  // The same data (and key) for a second server at the default DMS_LOG_LEVEL=info, one service per data dir.
  const infoDataDir = makeTempDir('dms-bench-info-');
  cpSync(dataDir, infoDataDir, { recursive: true });

  // --- The server at DMS_LOG_LEVEL=warn (stdout a pipe read by cat, as journald reads a service's). ---
  const server = await startServer({ dataDir, adminPassword, localRoots, logLevel: 'warn', label: 'warn' });
  log(`server pid ${server.pid} at ${server.origin} (DMS_LOG_LEVEL=warn)`);
  const rssSteps = [];
  const rssCheckpoint = (label) => {
    const memory = processMemory(server.pid);
    rssSteps.push(`${label} ${Math.round(memory.rssMb)}/${Math.round(memory.hwmMb)}`);
  };
  rssCheckpoint('started');
  const contentType = await checkShowBodies({ base: server.base, key, showIds: seeded.showIds, bodies: seeded.bodies });

  // --- Show: the server, the bare node:http baseline and the Hono reference, alternated
  // round by round so that a change in background load hits all three; medians compared. ---
  const bodiesFile = join(dataDir, 'bodies.json');
  writeFileSync(bodiesFile, JSON.stringify(Object.fromEntries(seeded.bodies)));
  const baseline = await startBaseline(bodiesFile, contentType);
  await baseline.ready(showPaths[0]);
  const floor = await startHonoFloor(seeded.file);
  await floor.ready(showPaths[0]);
  await checkShowBodies({ base: `${floor.origin}/api/v2`, key, showIds: seeded.showIds, bodies: seeded.bodies, sample: 10 });
  const contractFloor = await startContractFloor(seeded.file, key);
  await contractFloor.ready(showPaths[0], bearer);
  await checkShowBodies({ base: `${contractFloor.origin}/api/v2`, key, showIds: seeded.showIds, bodies: seeded.bodies, sample: 10 });
  const loggingContractFloor = await startContractFloor(seeded.file, key, { accessLog: true });
  await loggingContractFloor.ready(showPaths[0], bearer);
  // The default configuration: access log at info, stdout a pipe read by cat like the warn server's.
  const infoServer = await startServer({ dataDir: infoDataDir, adminPassword, localRoots, logLevel: 'info', label: 'info' });
  await checkShowBodies({ base: infoServer.base, key, showIds: seeded.showIds, bodies: seeded.bodies, sample: 10 });
  const [show, showInfo, base, floorRuns, contractRuns, loggingContractRuns] = await alternatedShow(
    [
      { target: server, headers: bearer },
      { target: infoServer, headers: bearer },
      { target: baseline, headers: {} },
      { target: floor, headers: {} },
      { target: contractFloor, headers: bearer },
      { target: loggingContractFloor, headers: bearer },
    ],
    { paths: showPaths, ...config.show },
  );
  const { rounds, connections, duration, warmup } = config.show;
  await baseline.stop();
  await floor.stop();
  await contractFloor.stop();
  await loggingContractFloor.stop();
  rssCheckpoint('after show');
  log(`show: ${round(show.rps)} req/s (${show.all}), baseline ${round(base.rps)} (${base.all}), hono floor ${round(floorRuns.rps)} (${floorRuns.all})`);
  record('show.rps', show.rps, 'req/s');
  record('show.baseline_rps', base.rps, 'req/s');
  record('show.ratio', show.rps / base.rps, 'ratio');
  record('show.p99_ms', show.p99, 'ms');
  record('show.baseline_p99_ms', base.p99, 'ms');
  record('show.cpu_us_per_req', show.cpuUsPerReq, 'us');
  record('show.baseline_cpu_us_per_req', base.cpuUsPerReq, 'us');
  record('show.cpu_ratio', base.cpuUsPerReq / show.cpuUsPerReq, 'ratio');
  record('show.hono_floor_rps', floorRuns.rps, 'req/s');
  record('show.hono_floor_ratio', floorRuns.rps / base.rps, 'ratio');
  record('show.ratio_vs_hono_floor', show.rps / floorRuns.rps, 'ratio');
  record('show.contract_floor_rps', contractRuns.rps, 'req/s');
  record('show.contract_floor_ratio_vs_hono_floor', contractRuns.rps / floorRuns.rps, 'ratio');
  record('show.ratio_vs_contract_floor', show.rps / contractRuns.rps, 'ratio');
  record('show.contract_floor_cpu_us_per_req', contractRuns.cpuUsPerReq, 'us');
  record('show.hono_floor_cpu_us_per_req', floorRuns.cpuUsPerReq, 'us');
  record('show.contract_floor_info_log_ratio', loggingContractRuns.rps / contractRuns.rps, 'ratio');
  notes.push(
    `show: ${connections} connections, per round ${warmup} s warm-up + ${duration} s each for the server, the server at info, the baseline, the Hono floor and the contract floor without and with an access log, ${rounds} rounds alternated, medians (req/s by round: server ${show.all}; baseline ${base.all}; floor ${floorRuns.all}); cycling over ${showPaths.length} ids; responses checked byte-equal to the baseline's`,
  );
  notes.push(
    'show.cpu_ratio: baseline CPU per request / server CPU per request (user+sys of each process, /proc/<pid>/stat, measured part only); less sensitive than req/s to other load on the machine',
  );
  notes.push(
    'show.hono_floor_*: bench/hono-floor-server.mjs, a Hono app on @hono/node-server answering the same JSON from the same SQLite file with one prepared read and nothing else (no authentication, rate limit, request id, ETag, metrics); the best show.ratio a Hono app reading SQLite gets on this machine',
  );
  notes.push(
    `show.contract_floor_*: the same Hono app with --contract, doing per request what the API contract asks of a show in its plainest form (the bearer key's SHA-256 looked up with its scope, a fixed-window rate limit and its RateLimit-* headers, X-Request-Id, nosniff, a strong ETag with If-None-Match, a request counter), alternated with the others (req/s by round: ${contractRuns.all}); show.contract_floor_ratio_vs_hono_floor is what the contract itself leaves of the floor, show.ratio_vs_contract_floor what dms's own structure leaves of that`,
  );
  notes.push(
    `show.contract_floor_info_log_ratio: the contract floor with --access-log (an access line a request through pino's asynchronous destination, stdout a pipe read by cat as the servers') over the contract floor, alternated with the others (req/s by round: ${loggingContractRuns.all}): what one access line a request costs an app this small on this machine, beside show.info_log_ratio_vs_warn for dms`,
  );
  if (
    show.non2xx ||
    show.errors ||
    base.non2xx ||
    base.errors ||
    floorRuns.non2xx ||
    floorRuns.errors ||
    contractRuns.non2xx ||
    contractRuns.errors ||
    loggingContractRuns.non2xx ||
    loggingContractRuns.errors
  ) {
    notes.push(
      `show: non-2xx ${show.non2xx}, errors ${show.errors}; baseline non-2xx ${base.non2xx}, errors ${base.errors}; floor non-2xx ${floorRuns.non2xx}, errors ${floorRuns.errors}; contract floor non-2xx ${contractRuns.non2xx}, errors ${contractRuns.errors}; logging contract floor non-2xx ${loggingContractRuns.non2xx}, errors ${loggingContractRuns.errors}`,
    );
  }

  await checkList({ origin: server.origin, key, total: config.shares });
  const list = await throughput({ origin: server.origin, paths: [listPath(config.shares)], headers: bearer, ...config.list });
  const list4 = await throughput({ origin: server.origin, paths: [listPath(config.shares)], headers: bearer, ...config.list4 });
  rssCheckpoint('after list');
  record('list.p99_ms', list.p99, 'ms');
  record('list.p50_ms', list.p50, 'ms');
  record('list.rps', list.rps, 'req/s');
  record('list.p99_ms_c4', list4.p99, 'ms');
  notes.push(
    `list: GET ${decodeURIComponent(listPath(config.shares))} (matches all ${config.shares}); list.p99_ms at ${config.list.connections} connection for ${config.list.duration} s (query cost), list.p99_ms_c4 at ${config.list4.connections} connections for ${config.list4.duration} s (includes queueing)`,
  );
  if (list.non2xx || list.errors || list4.non2xx || list4.errors)
    notes.push(`list: non-2xx ${list.non2xx + list4.non2xx}, errors ${list.errors + list4.errors}`);
  log(`list: p99 ${list.p99} ms, p50 ${list.p50} ms, ${round(list.rps)} req/s; at 4 connections p99 ${list4.p99} ms`);

  // --- Jobs: a share test on a local share, through the API. ---
  const nasRes = await request(`${server.base}/nas`, {
    method: 'POST',
    headers: { authorization: basic },
    body: { name: 'local-bench', host: 'localhost', type: 'local' },
  });
  if (nasRes.status !== 201) throw new Error(`POST /nas answered ${nasRes.status}: ${nasRes.body}`);
  const localNasId = nasRes.json().id;
  const testJob = await testJobLatency({ base: server.base, auth: basic, nasId: localNasId, path: 'testdir', count: config.testJobs });
  record('test_job.median_ms', testJob.median, 'ms');
  record('test_job.p95_ms', testJob.p95, 'ms');
  notes.push(
    `test_job: ${config.testJobs} sequential PUT …/-/test + GET …?wait=5 (after 10 warm-up), Basic admin (cached), ${round(testJob.getsPerJob)} GETs per job${testJob.failures.length ? `; ${testJob.failures.length} FAILED: ${testJob.failures[0]}` : ''}`,
  );
  rssCheckpoint('after test jobs');
  log(`test_job: median ${round(testJob.median)} ms, p95 ${round(testJob.p95)} ms, max ${round(testJob.max)} ms`);

  // --- Scan: du -sb vs. the API's scan job on the same tree, both warm. ---
  const shareRes = await request(`${server.base}/nas/${localNasId}/nas_shares`, {
    method: 'POST',
    headers: { authorization: basic },
    body: { name: 'bench-tree', path: treeDir },
  });
  if (shareRes.status !== 201) throw new Error(`POST /nas/${localNasId}/nas_shares answered ${shareRes.status}: ${shareRes.body}`);
  const treeShareId = shareRes.json().id;
  // Both warm: one du and one scan first, then du and scan alternated 3 times (so a change
  // in background load hits both sides); the medians are compared.
  duSeconds(treeDir, 1);
  const scanFirst = await apiScan({ base: server.base, auth: basic, shareId: treeShareId });
  if (scanFirst.job.file_count !== tree.count) throw new Error(`scan job wrong: ${JSON.stringify(scanFirst.job)} (want file_count ${tree.count})`);
  const duRuns = [];
  const scanRuns = [];
  for (let i = 0; i < 3; i++) {
    duRuns.push(duSeconds(treeDir, 1).seconds);
    const scan = await apiScan({ base: server.base, auth: basic, shareId: treeShareId });
    if (scan.job.status !== 'completed' || scan.job.file_count !== tree.count || scan.job.file_size_sum !== tree.sum) {
      throw new Error(`scan job wrong: ${JSON.stringify(scan.job)} (want file_count ${tree.count}, file_size_sum ${tree.sum})`);
    }
    scanRuns.push(scan.seconds);
  }
  const duMedian = median(duRuns);
  const scanMedian = median(scanRuns);
  record('du.seconds', duMedian, 's');
  record('scan.seconds', scanMedian, 's');
  record('scan.first_seconds', scanFirst.seconds, 's');
  record('scan.api.ratio_vs_du', scanMedian / duMedian, 'ratio');
  notes.push(
    `scan: ${tree.count} files in ${config.tree.dirs} dirs${treeBase.startsWith('/dev/shm') ? ' on tmpfs (/dev/shm)' : ''}; warm du -sb vs. API scan (PUT …/scan + GET …?wait=30, file_count and file_size_sum checked), alternated 3 times, medians (du ${duRuns.map((x) => round(x, 3)).join('/')} s, scan ${scanRuns.map((x) => round(x, 3)).join('/')} s)`,
  );
  log(`scan: ${round(scanMedian, 3)} s (first ${round(scanFirst.seconds, 3)} s), du -sb ${round(duMedian, 3)} s`);

  rssCheckpoint('after scans');
  const memory = processMemory(server.pid);
  record('rss_mb', memory.rssMb, 'MB');
  record('rss_peak_mb', memory.hwmMb, 'MB');
  notes.push(`rss_mb: VmRSS of the server at the end (after show, list, jobs and scans); rss_peak_mb: VmHWM. VmRSS/VmHWM MB by phase: ${rssSteps.join(', ')}`);
  await server.stop();

  // --- The list at the default DMS_LOG_LEVEL=info (access log to a pipe read by cat); its show ran alternated above. ---
  const listInfo = await throughput({
    origin: infoServer.origin,
    paths: [listPath(config.shares)],
    headers: bearer,
    connections: config.list.connections,
    duration: quick ? 2 : 4,
    warmup: 1,
  });
  await infoServer.stop();
  record('show.rps_info_log', showInfo.rps, 'req/s');
  record('show.ratio_info_log', showInfo.rps / base.rps, 'ratio');
  record('show.info_log_ratio_vs_warn', showInfo.rps / show.rps, 'ratio');
  record('show.info_log_cpu_us_per_req', showInfo.cpuUsPerReq, 'us');
  record('list.p99_ms_info_log', listInfo.p99, 'ms');
  notes.push(
    `log level: the targets are measured at DMS_LOG_LEVEL=warn; *_info_log rows at the default info (one access-log line per request, stdout a pipe read by cat in a process of its own, as journald reads a service's): show on a second server over a copy of the data dir, alternated round by round with the warn server, the baseline and the floor (req/s by round: ${showInfo.all}; show.info_log_ratio_vs_warn = its median over the warn server's), list for ${quick ? 2 : 4} s after`,
  );
  log(`show at info: ${round(showInfo.rps)} req/s; list p99 at info ${listInfo.p99} ms`);

  // --- Engine throughput in-process. ---
  const engineDir = makeTempDir('dms-bench-engine-');
  const engine = await engineThroughput({ dir: engineDir, jobs: config.engineJobs });
  record('jobs.per_s', engine.perSecond, 'jobs/s');
  record('jobs.enqueue_per_s', engine.enqueuePerSecond, 'jobs/s');
  notes.push(
    `jobs.per_s: ${config.engineJobs} local share tests enqueued, then the engine started in-process (default concurrency 4), until all finished (${engine.completed} completed, ${engine.failed} failed) in ${round(engine.seconds)} s`,
  );
  log(`engine: ${round(engine.perSecond)} jobs/s`);

  // --- NFS scans: the same tree over NFS-Ganesha and as a local share, through a server of its own. ---
  await nfsScanBench({ record, notes, log, tree: config.tree });

  // --- Local scans with analytics: vs. du -sb and vs. no analytics; RSS over 1,000,000 entries. ---
  await localScanBench({ record, notes, log });

  // --- Remote scans walking in parallel: SMB vs smbclient's recursive listing, NFS 8 calls in flight vs 1. ---
  await remoteScanBench({ record, notes, log, tree: config.tree });

  // --- Tracing: show with traces exported at 10 % sampling against tracing off. ---
  await tracingBench({ record, notes, log });
  // --- /metrics with 10,000 shares: one scrape's time and size. ---
  await metricsBench({ record, notes, log });

  // --- Faults: another process holding SQLite's write lock; synchronous FULL vs NORMAL. ---
  await faultsBench({ record, notes, log });

  // --- Shutdown: SIGTERM under load, exit time and acknowledged writes after a restart. ---
  await shutdownBench({ record, notes, log });

  // --- Hostile inputs: what each costs the event loop and the memory of a server of its own. ---
  await hostileBench({ record, notes, log, targets });

  if (withPostgres) {
    const sqlite = { showCpuUsPerReq: show.cpuUsPerReq, jobsPerSecond: engine.perSecond };
    await postgresBench({ serverUrl: args.pgUrl, config: pgConfig, quick, sqliteFloorFile: seeded.file, sqlite, adminPassword, record, notes, log });
  }
  notes.push(
    `load average at end ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} (other work on the machine skews req/s and latencies)`,
  );
}

await withBudget({ budgetMs: config.budgetMs, main, report, notes, log });
