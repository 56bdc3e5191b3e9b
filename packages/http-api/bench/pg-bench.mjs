// The http-api benchmark on PostgreSQL (`npm run bench -- --db postgres`): the same show,
// list and engine measurements as on SQLite, plus two replicas on one database against one.
// Runs on a database of its own (dms_bench_<random>), dropped at the end, also on failure
// (lib.mjs cleanups: awaited by cleanupAll, synchronous in the 'exit' handler).
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTempDir, onCleanup, processContextSwitches, processCpuSeconds, processesNamed, round, spawnChild } from './lib.mjs';
import { seedPostgres } from './seed.mjs';
import { createApiKey, replicaNodeFlags, serveNodeFlags, serverEnv, startHonoFloor, startServer } from './server.mjs';
import { alternatedShow, checkList, checkShowBodies, listPath, throughput } from './http-bench.mjs';
import { engineThroughput } from './jobs-bench.mjs';
import { findWrk, wrkLoad } from './wrk-load.mjs';

// pg is a dependency of @dms/core: resolve it from there.
const requireFromCore = createRequire(import.meta.resolve('@dms/core'));
const pg = requireFromCore('pg');
const loadScript = fileURLToPath(new URL('./load-process.mjs', import.meta.url));

/** The server to create the bench database on: --pg-url, DMS_BENCH_PG_URL, or the local one with trust auth. */
export const defaultPgServerUrl = 'postgres://postgres@127.0.0.1:5432/postgres';

const redact = (url) => url.replace(/\/\/[^@/]*@/, '//***@');

function withDatabase(serverUrl, database) {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function onServer(serverUrl, run) {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

const dropStatement = (name) => `drop database if exists ${name} with (force)`;

/** The synchronous last resort (process 'exit'): a short node child that drops the database. */
function dropDatabaseSync(serverUrl, name) {
  const script = `const pg = require(${JSON.stringify(requireFromCore.resolve('pg'))});
    const c = new pg.Client({ connectionString: process.env.BENCH_PG_SERVER, connectionTimeoutMillis: 5000 });
    c.connect().then(() => c.query(${JSON.stringify(dropStatement(name))})).catch((e) => { console.error(e.message); process.exitCode = 1; }).finally(() => c.end());`;
  spawnSync(process.execPath, ['-e', script], { env: { ...process.env, BENCH_PG_SERVER: serverUrl }, stdio: 'inherit', timeout: 15_000 });
}

/** `dms_bench_<random>` on the server, dropped by drop() or else by the bench's cleanup. */
export async function createBenchDatabase(serverUrl) {
  const name = `dms_bench_${randomBytes(6).toString('hex')}`;
  await onServer(serverUrl, (client) => client.query(`create database ${name}`));
  const drop = () => onServer(serverUrl, (client) => client.query(dropStatement(name)));
  const unregister = onCleanup({ run: drop, runSync: () => dropDatabaseSync(serverUrl, name) });
  return {
    name,
    url: withDatabase(serverUrl, name),
    drop: async () => {
      await drop();
      unregister();
    },
  };
}

/**
 * CPU of PostgreSQL, read from /proc (the bench runs on the database's machine):
 * `backends`, the server processes connected to the bench database (pids from
 * pg_stat_activity, asked through a connection to another database so that it is not one
 * of them); `all`, every process named postgres (also other databases' backends and the
 * WAL writer, checkpointer …) plus the postmaster's cutime+cstime, the CPU of backends that
 * exited meanwhile.
 */
class PostgresCpu {
  constructor(monitor, database) {
    this.monitor = monitor;
    this.database = database;
  }

  async sample() {
    const { rows } = await this.monitor.query('select pid from pg_stat_activity where datname = $1', [this.database]);
    const mine = new Set(rows.map((row) => row.pid));
    const processes = processesNamed('postgres');
    const pids = new Set(processes.map((p) => p.pid));
    const backends = new Map(processes.filter((p) => mine.has(p.pid)).map((p) => [p.pid, p.cpu]));
    // The postmaster: the postgres process whose parent is not one.
    const all = processes.reduce((sum, p) => sum + p.cpu + (pids.has(p.ppid) ? 0 : p.children), 0);
    return { backends, all };
  }

  /**
   * CPU seconds the bench database's backends have used so far, each backend at the last value
   * seen (so one that exits keeps counting): a monotonic reading for differences.
   */
  async backendsSeconds() {
    const { backends } = await this.sample();
    this.seen ??= new Map();
    for (const [pid, cpu] of backends) this.seen.set(pid, cpu);
    let total = 0;
    for (const cpu of this.seen.values()) total += cpu;
    return total;
  }

  /** CPU seconds between two samples; a backend that started in between counts from 0. */
  static delta(before, after) {
    let backends = 0;
    for (const [pid, cpu] of after.backends) backends += cpu - (before.backends.get(pid) ?? 0);
    return { backends, all: after.all - before.all };
  }
}

/** CPU of the replicas and of PostgreSQL now, to subtract from a reading after the measured run. */
async function cpuNow(replicas, postgresCpu) {
  return {
    replicas: replicas.map((replica) => processCpuSeconds(replica.pid)),
    switches: replicas.map((replica) => processContextSwitches(replica.pid)),
    postgres: await postgresCpu.sample(),
  };
}

function withCpu(result, before, after) {
  return {
    ...result,
    cpu: {
      replicas: after.replicas.map((cpu, i) => cpu - before.replicas[i]),
      switches: after.switches.map((switches, i) => ({
        voluntary: switches.voluntary - before.switches[i].voluntary,
        preempted: switches.preempted - before.switches[i].preempted,
      })),
      load: result.cpuSeconds,
      ...PostgresCpu.delta(before.postgres, after.postgres),
    },
  };
}

/** One run of load-process.mjs (autocannon); CPU of the replicas and of PostgreSQL read around its measured part. */
async function autocannonRun({ specFile, spec, replicas, postgresCpu }) {
  writeFileSync(specFile, JSON.stringify(spec));
  const child = spawnChild(process.execPath, [loadScript, specFile], { stdout: 'pipe' });
  let out = '';
  const measuringStarted = new Promise((resolve) => {
    child.stdout.on('data', (chunk) => {
      out += chunk.toString();
      if (out.includes('"phase":"measuring"')) resolve();
    });
  });
  const exited = child.exited;
  await Promise.race([measuringStarted, exited]);
  const before = await cpuNow(replicas, postgresCpu);
  const { code, signal } = await exited;
  const after = await cpuNow(replicas, postgresCpu);
  const line = out.split('\n').find((text) => text.startsWith('{"rps"'));
  if (code !== 0 || !line) throw new Error(`load process failed (${code ?? signal}):\n${child.stderrTail()}\n${out}`);
  return withCpu(JSON.parse(line), before, after);
}

/** The same with wrk processes as the load (wrk-load.mjs). */
async function wrkRun({ wrk, dir, spec, paths, replicas, postgresCpu }) {
  let before;
  const result = await wrkLoad({ wrk, dir, ...spec, paths, onMeasuring: async () => (before = await cpuNow(replicas, postgresCpu)) });
  return withCpu(result, before, await cpuNow(replicas, postgresCpu));
}

/**
 * The statements behind the list request, as the server writes them (kysely-list-rows.ts:
 * the page's ids through a subquery; the count, which a replica runs only when the share
 * list version moved since it last counted; the version read it runs every time), as EXPLAIN
 * ANALYZE sees them: execution time and the plan's nodes.
 */
async function explainList(client, total) {
  // `~share-%` is the prefix range share- .. share. (like-prefix-range.ts); name is NOT NULL, so no NULLS clause.
  const where = `"name" >= 'share-' and "name" < 'share.'`;
  const order = '"name" desc, "id" asc';
  const statements = {
    page: `select id, nas_id, pool_id, name, path, options, username, password_enc, file_count, file_size_sum from nas_shares
       where id in (select id from nas_shares where ${where} order by ${order} limit 20 offset ${Math.floor(total / 2)}) order by ${order}`,
    // The same page sought from its own first row, known from an earlier request (anchor).
    seek: `select id, nas_id, pool_id, name, path, options, username, password_enc, file_count, file_size_sum from nas_shares
       where id in (select id from nas_shares where "name" <= $1 and ("name" < $1 or ("name" = $1 and "id" >= $2)) and ${where} order by ${order} limit 20 offset 0) order by ${order}`,
    count: `select count(*) as count from nas_shares where ${where}`,
    version: `select sum(version)::text as version from list_versions where table_name = 'nas_shares'`,
  };
  const out = {};
  const {
    rows: [first],
  } = await client.query(`select name, id from nas_shares where ${where} order by ${order} limit 1 offset ${Math.floor(total / 2)}`);
  for (const [name, text] of Object.entries(statements)) {
    const values = name === 'seek' ? [first.name, first.id] : [];
    await client.query(`explain analyze ${text}`, values); // warm
    const { rows } = await client.query(`explain (analyze, format json) ${text}`, values);
    const [plan] = rows[0]['QUERY PLAN'];
    const nodes = [];
    const walk = (node) => {
      const detail = node['Sort Method'] ? ` (${node['Sort Method']})` : node['Index Name'] ? ` ${node['Index Name']}` : '';
      nodes.push(`${node['Node Type']}${node['Scan Direction'] === 'Backward' ? ' Backward' : ''}${detail}`);
      for (const child of node.Plans ?? []) walk(child);
    };
    walk(plan.Plan);
    out[name] = { ms: plan['Execution Time'], nodes: nodes.join(' > ') };
  }
  return out;
}

/** The job store's statements by name, anything else by its first words. */
function statementLabel(text) {
  const flat = text.replace(/\s+/g, ' ').replaceAll('"', '').trim();
  const known = [
    [/^with finished as \(update jobs/, 'finish+claim'],
    [/^update jobs set status = 'working'/, 'claim'],
    [/^update jobs set progress/, 'progress'],
    [/^update jobs set status = \$1/, 'finish'],
    [/^insert into jobs/, 'enqueue'],
  ];
  return known.find(([pattern]) => pattern.test(flat))?.[1] ?? flat.split(' ').slice(0, 4).join(' ') + '…';
}

/**
 * Wall time of every pg query of this process by statement (its first words), from a wrapper
 * of pg.Client.prototype.query (about a microsecond a query): what the engine waits for.
 */
function timeQueries() {
  const original = pg.Client.prototype.query;
  const times = new Map();
  const add = (key, started) => {
    const entry = times.get(key) ?? { count: 0, ms: 0 };
    entry.count += 1;
    entry.ms += performance.now() - started;
    times.set(key, entry);
  };
  pg.Client.prototype.query = function (config, values, callback) {
    const text = typeof config === 'string' ? config : config.text;
    const key = statementLabel(text);
    const started = performance.now();
    // pg.Pool's query (the named statements) passes a callback: time it there.
    const done = [values, callback].find((argument) => typeof argument === 'function');
    if (done) {
      const timed = (...args) => {
        add(key, started);
        return done(...args);
      };
      return original.call(this, config, values === done ? timed : values, callback === done ? timed : callback);
    }
    const result = original.call(this, config, values, callback);
    if (result && typeof result.then === 'function')
      void result.then(
        () => add(key, started),
        () => {},
      );
    return result;
  };
  return {
    times,
    restore: () => {
      pg.Client.prototype.query = original;
    },
  };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;

/**
 * Everything on PostgreSQL. `sqliteFloorFile`: the SQLite file of the SQLite run, for the Hono
 * floor that show.ratio_vs_hono_floor is measured against (measured again here, alternated with
 * the server on PostgreSQL); `sqlite`: figures of the SQLite run to compare with
 * ({ showCpuUsPerReq, jobsPerSecond }). `record(name, value, unit)`, `notes`, `log` as in run.mjs.
 */
export async function postgresBench({ serverUrl, config, quick, sqliteFloorFile, sqlite = {}, adminPassword, record, notes, log }) {
  const started = performance.now();
  const database = await createBenchDatabase(serverUrl);
  log(`pg: database ${database.name} on ${redact(serverUrl)}`);
  // Asks pg_stat_activity for the bench database's backends (CPU readings); on another database.
  const monitor = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 5_000 });
  await monitor.connect();
  try {
    await measure({ database, monitor });
  } finally {
    await monitor.end();
  }
  await database.drop();
  log(`pg: dropped ${database.name}${quick ? ' (quick run)' : ''}`);

  async function measure({ database, monitor }) {
    const seeded = await seedPostgres(database.url, { shares: config.shares, showCount: config.showSet });
    log(`pg: migrated and seeded ${config.shares} shares in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const postgresCpu = new PostgresCpu(monitor, database.name);
    const backendsSeconds = () => postgresCpu.backendsSeconds();

    const dir = makeTempDir('dms-bench-pg-');
    const dataDir = (name) => {
      const path = join(dir, name);
      mkdirSync(path, { recursive: true, mode: 0o700 });
      return path;
    };
    // Replicas share the database and the secret key (the README's configuration table); each has its own data dir.
    const extraEnv = { DMS_DATABASE_URL: database.url, DMS_SECRET_KEY: randomBytes(32).toString('hex') };
    const key = await createApiKey(serverEnv({ dataDir: dataDir('cli'), adminPassword, extraEnv }));
    const bearer = { authorization: `Bearer ${key}` };
    const showPaths = seeded.showIds.map((id) => `/api/v2/nas_shares/${id}`);

    // Replicas run as the README starts them (`npx dms serve`: V8's own heap sizes), not under the
    // capped young generation `npm start` gives the single SQLite box (docs/decisions/079-serving-heap-flags.md).
    const serverA = await startServer({ dataDir: dataDir('a'), adminPassword, logLevel: 'warn', label: 'pg-a', extraEnv, nodeFlags: replicaNodeFlags });
    log(`pg: server pid ${serverA.pid} at ${serverA.origin} (DMS_LOG_LEVEL=warn, DMS_PG_POOL_MAX default 10)`);
    await checkShowBodies({ base: serverA.base, key, showIds: seeded.showIds, bodies: seeded.bodies });

    // --- Show: the server on PostgreSQL, the Hono floor on SQLite (the show.ratio_vs_hono_floor
    // reference) and the Hono floor on PostgreSQL, alternated round by round. ---
    const sqliteFloor = await startHonoFloor(sqliteFloorFile);
    await sqliteFloor.ready(showPaths[0]);
    const pgFloor = await startHonoFloor(database.url);
    await pgFloor.ready(showPaths[0]);
    await checkShowBodies({ base: `${pgFloor.origin}/api/v2`, key, showIds: seeded.showIds, bodies: seeded.bodies, sample: 10 });
    // The same server under npm start's flags, for what the SQLite box's heap cap would cost here.
    const capped = await startServer({ dataDir: dataDir('capped'), adminPassword, logLevel: 'warn', label: 'pg-capped', extraEnv, nodeFlags: serveNodeFlags });
    const [show, floor, floorPg, showCapped] = await alternatedShow(
      [
        { target: serverA, headers: bearer, otherCpu: backendsSeconds },
        { target: sqliteFloor, headers: {} },
        { target: pgFloor, headers: {}, otherCpu: backendsSeconds },
        { target: capped, headers: bearer },
      ],
      { paths: showPaths, ...config.show },
    );
    await sqliteFloor.stop();
    await pgFloor.stop();
    await capped.stop();
    log(
      `pg: show ${round(show.rps)} req/s (${show.all}), hono floor (SQLite) ${round(floor.rps)} (${floor.all}), hono floor (PostgreSQL) ${round(floorPg.rps)} (${floorPg.all})`,
    );
    record('pg.show.rps', show.rps, 'req/s');
    record('pg.show.p99_ms', show.p99, 'ms');
    record('pg.show.cpu_us_per_req', show.cpuUsPerReq, 'us');
    record('pg.show.pg_backends_cpu_us_per_req', show.otherCpuUsPerReq, 'us');
    // The goal's ratio: as show.ratio_vs_hono_floor on SQLite, the server against the Hono
    // floor on the same storage (docs/performance.md).
    record('pg.show.hono_floor_rps', floorPg.rps, 'req/s');
    record('pg.show.ratio_vs_hono_floor', show.rps / floorPg.rps, 'ratio');
    record('pg.show.sqlite_hono_floor_rps', floor.rps, 'req/s');
    record('pg.show.ratio_vs_sqlite_hono_floor', show.rps / floor.rps, 'ratio');
    record('pg.show.pg_floor_vs_sqlite_floor', floorPg.rps / floor.rps, 'ratio');
    record('pg.show.npm_start_flags_ratio_vs_hono_floor', showCapped.rps / floorPg.rps, 'ratio');
    record('pg.show.npm_start_flags_cpu_us_per_req', showCapped.cpuUsPerReq, 'us');
    notes.push(
      `pg.show.npm_start_flags_*: the same server under \`npm start\`'s V8 flags (${serveNodeFlags.join(' ')}, the single SQLite box's memory cap), alternated with the others: ${round(showCapped.rps)} req/s (${showCapped.all}), ${round(showCapped.cpuUsPerReq)} us CPU a request against ${round(show.cpuUsPerReq)} under V8's own sizes. A request waits for PostgreSQL with its objects alive, so a capped young generation is scavenged often with much of it still live; pg.show and the replica rows run the server as the README starts a replica (\`npx dms serve\`, no flags), as the floor runs`,
    );
    notes.push(
      `pg.show: as show, the server on PostgreSQL against the same Hono floor (bench/hono-floor-server.mjs: Hono with no authentication, limits, ETag, metrics or log, and one named prepared statement on a pg.Pool of 10) reading the same PostgreSQL database, alternated round by round: pg.show.ratio_vs_hono_floor reads "the server vs. the least a Hono app on this storage does", as show.ratio_vs_hono_floor does on SQLite. Beside it the same floor on the SQLite run's file (pg.show.ratio_vs_sqlite_hono_floor; pg.show.pg_floor_vs_sqlite_floor: what one PostgreSQL round trip a request costs even the floor). Req/s by round: server ${show.all}; PostgreSQL floor ${floorPg.all}; SQLite floor ${floor.all}. pg_backends_cpu_us_per_req: CPU of the database's backends (pids from pg_stat_activity, /proc/<pid>/stat) per request`,
    );
    notes.push(
      `pg.show (where the time goes): each request is one PostgreSQL round trip, and the database shares the ${config.cpus} CPUs: even the Hono floor on PostgreSQL reaches only ${round(floorPg.rps / floor.rps, 2)} of the same floor on SQLite. The server spends ${round(show.cpuUsPerReq)} us CPU a request on PostgreSQL${sqlite.showCpuUsPerReq ? ` vs. ${round(sqlite.showCpuUsPerReq)} us on SQLite` : ''} (the difference is the pg client: a writev and a socket read per query beside the HTTP ones, protocol encoding, result parsing, pool bookkeeping, more garbage; see \`node bench/profile.mjs show 6 --db postgres\` against the same without --db), and the backends ${round(show.otherCpuUsPerReq)} us (floor: ${round(floorPg.otherCpuUsPerReq)} us) on the same cores. Against the PostgreSQL floor the server keeps ${round(show.rps / floorPg.rps, 2)}. Done for this: hot one-row reads (share by id, key by hash) are named prepared statements on PostgreSQL (no parse and plan per call, no Kysely executor): about −35% backend and −15% server CPU a request, measured A/B when it was made (docs/performance.md)`,
    );
    if (show.non2xx || show.errors || floor.non2xx || floor.errors || floorPg.non2xx || floorPg.errors || showCapped.non2xx || showCapped.errors) {
      notes.push(
        `pg.show: non-2xx ${show.non2xx}, errors ${show.errors}; SQLite floor non-2xx ${floor.non2xx}, errors ${floor.errors}; PostgreSQL floor non-2xx ${floorPg.non2xx}, errors ${floorPg.errors}; under npm start's flags non-2xx ${showCapped.non2xx}, errors ${showCapped.errors}`,
      );
    }

    // --- List: 1 and 4 connections, then the plans, then the same with an index whose null order matches. ---
    await checkList({ origin: serverA.origin, key, total: config.shares });
    const listLoad = { origin: serverA.origin, paths: [listPath(config.shares)], headers: bearer };
    const list = await throughput({ ...listLoad, ...config.list });
    const list4 = await throughput({ ...listLoad, ...config.list4 });
    record('pg.list.p99_ms', list4.p99, 'ms');
    record('pg.list.p50_ms', list4.p50, 'ms');
    record('pg.list.p99_ms_c1', list.p99, 'ms');
    record('pg.list.p50_ms_c1', list.p50, 'ms');
    record('pg.list.rps_c1', list.rps, 'req/s');
    notes.push(
      `pg.list: the same list request; pg.list.p99_ms and p50_ms at ${config.list4.connections} connections for ${config.list4.duration} s, *_c1 at ${config.list.connections} connection for ${config.list.duration} s`,
    );
    if (list.non2xx || list.errors || list4.non2xx || list4.errors)
      notes.push(`pg.list: non-2xx ${list.non2xx + list4.non2xx}, errors ${list.errors + list4.errors}`);
    log(
      `pg: list p99 ${list4.p99} ms (p50 ${list4.p50}) at ${config.list4.connections} connections; ${list.p99} ms (p50 ${list.p50}, ${round(list.rps)} req/s) at 1`,
    );
    const explainClient = new pg.Client({ connectionString: database.url });
    await explainClient.connect();
    try {
      const plans = await explainList(explainClient, config.shares);
      record('pg.list.page_query_ms', plans.page.ms, 'ms');
      record('pg.list.seek_page_query_ms', plans.seek.ms, 'ms');
      record('pg.list.count_query_ms', plans.count.ms, 'ms');
      notes.push(
        `pg.list (where the time goes; EXPLAIN ANALYZE of what the request runs): the first time, the page walks ${Math.floor(config.shares / 2)} index entries to its offset, ${round(plans.page.ms)} ms [${plans.page.nodes}], and the count reads every match, ${round(plans.count.ms)} ms [${plans.count.nodes}]; from then on, until a share is written on any replica, the count is remembered and the page seeks from its first row, remembered as an anchor (kysely-list-cache.ts), ${round(plans.seek.ms, 3)} ms [${plans.seek.nodes}], beside the share list version read, ${round(plans.version.ms, 3)} ms [${plans.version.nodes}]. A client paging on seeks from the last page's row the same way. Nothing writes during this run, so this measures a list between writes; after a write the first request of each filter pays both walks again`,
      );
      log(
        `pg: list plans: page ${round(plans.page.ms)} ms walked, ${round(plans.seek.ms, 3)} ms sought; count ${round(plans.count.ms)} ms (after a write); version ${round(plans.version.ms, 3)} ms`,
      );
    } finally {
      await explainClient.end();
    }

    // --- Two replicas on the database vs. one, the load generator in a process of its own. ---
    const serverB = await startServer({ dataDir: dataDir('b'), adminPassword, logLevel: 'warn', label: 'pg-b', extraEnv, nodeFlags: replicaNodeFlags });
    await checkShowBodies({ base: serverB.base, key, showIds: seeded.showIds, bodies: seeded.bodies, sample: 10 });
    const pathsFile = join(dir, 'paths.json');
    writeFileSync(pathsFile, JSON.stringify(showPaths));
    const specFile = join(dir, 'load.json');
    const replicas = [serverA, serverB];
    const runs = { one: [], two: [] };
    const { connections, duration, warmup, rounds } = config.replicas;
    const wrk = findWrk();
    const loadTool = wrk
      ? `wrk (${wrk}), one process per replica`
      : 'autocannon in bench/load-process.mjs, a node process of its own (install wrk for a lighter load: apt-get install wrk)';
    log(`pg: two replicas vs. one, load from ${loadTool}`);
    for (let pass = 0; pass < rounds; pass++) {
      // The replica that serves alone alternates: the other one idles meanwhile (its pool lets
      // connections go, its code cools), and would start each two-replica round the colder.
      const alone = pass % 2;
      for (const mode of ['one', 'two']) {
        const origins = (mode === 'one' ? [replicas[alone]] : replicas).map((replica) => replica.origin);
        const spec = { origins, connections, duration, warmup, headers: bearer, pathsFile };
        const run = wrk
          ? await wrkRun({ wrk, dir, spec, paths: showPaths, replicas, postgresCpu })
          : await autocannonRun({ specFile, spec, replicas, postgresCpu });
        run.serving = mode === 'one' ? run.cpu.replicas[alone] : run.cpu.replicas[0] + run.cpu.replicas[1];
        const serving = mode === 'one' ? [run.cpu.switches[alone]] : run.cpu.switches;
        run.voluntary = serving.reduce((sum, each) => sum + each.voluntary, 0);
        run.preempted = serving.reduce((sum, each) => sum + each.preempted, 0);
        runs[mode].push(run);
      }
    }
    await serverA.stop();
    await serverB.stop();
    const summary = (list) => ({
      rps: median(list.map((run) => run.rps)),
      p99: median(list.map((run) => run.p99)),
      all: list.map((run) => round(run.rps)).join('/'),
      non2xx: list.reduce((sum, run) => sum + run.non2xx, 0),
      errors: list.reduce((sum, run) => sum + run.errors, 0),
      // CPU seconds in one measured run (mean over the rounds).
      cpu: {
        replicaA: mean(list.map((run) => run.cpu.replicas[0])),
        replicaB: mean(list.map((run) => run.cpu.replicas[1])),
        load: mean(list.map((run) => run.cpu.load)),
        backends: mean(list.map((run) => run.cpu.backends)),
        all: mean(list.map((run) => run.cpu.all)),
        serving: mean(list.map((run) => run.serving)),
      },
      // Context switches of the serving replicas' main threads in one measured run (mean).
      voluntary: mean(list.map((run) => run.voluntary)),
      preempted: mean(list.map((run) => run.preempted)),
      total: mean(list.map((run) => run.total)),
    });
    const one = summary(runs.one);
    const two = summary(runs.two);
    record('pg.two_replicas.one_rps', one.rps, 'req/s');
    record('pg.two_replicas.two_rps', two.rps, 'req/s');
    record('pg.two_replicas.rps_ratio', two.rps / one.rps, 'ratio');
    record('pg.two_replicas.one_p99_ms', one.p99, 'ms');
    record('pg.two_replicas.two_p99_ms', two.p99, 'ms');
    for (const [mode, s] of [
      ['one', one],
      ['two', two],
    ]) {
      record(`pg.two_replicas.${mode}.cpu_s.replica_a`, s.cpu.replicaA, 's');
      record(`pg.two_replicas.${mode}.cpu_s.replica_b`, s.cpu.replicaB, 's');
      record(`pg.two_replicas.${mode}.cpu_s.load`, s.cpu.load, 's');
      record(`pg.two_replicas.${mode}.cpu_s.pg_backends`, s.cpu.backends, 's');
      record(`pg.two_replicas.${mode}.cpu_s.postgres_all`, s.cpu.all, 's');
      record(`pg.two_replicas.${mode}.waits_per_1k_req`, (1000 * s.voluntary) / Math.max(1, s.total), 'count');
      record(`pg.two_replicas.${mode}.preemptions_per_1k_req`, (1000 * s.preempted) / Math.max(1, s.total), 'count');
    }
    const usPerReq = (seconds, s) => (seconds * 1e6) / Math.max(1, s.total);
    // What serving a request costs the service: the replicas serving and the database's backends
    // (not the load generator; with one replica, not the idle other one either).
    const serviceUsPerReq = (s) => usPerReq(s.cpu.serving + s.cpu.backends, s);
    record('pg.two_replicas.one_service_cpu_us_per_req', serviceUsPerReq(one), 'us');
    record('pg.two_replicas.two_service_cpu_us_per_req', serviceUsPerReq(two), 'us');
    record('pg.two_replicas.service_cpu_ratio', serviceUsPerReq(two) / serviceUsPerReq(one), 'ratio');
    const perRequest = (s) =>
      `replica A ${round(usPerReq(s.cpu.replicaA, s))} + B ${round(usPerReq(s.cpu.replicaB, s))}, load ${round(usPerReq(s.cpu.load, s))}, pg backends ${round(usPerReq(s.cpu.backends, s))} us/req`;
    const busy = (s) => s.cpu.replicaA + s.cpu.replicaB + s.cpu.load + s.cpu.all;
    notes.push(
      `pg.two_replicas: two \`dms serve\` (own data dirs, one DMS_DATABASE_URL and DMS_SECRET_KEY, rate limits per process) vs. one, GET show cycling over the show set, ${connections} connections in all (split ${Math.ceil(connections / 2)}+${Math.floor(connections / 2)} over the two) from ${loadTool}; ${rounds} round(s) of one then two, each ${warmup} s warm-up + ${duration} s measured; medians (req/s by round: one ${one.all}; two ${two.all}); p99 ${one.p99} ms vs. ${two.p99} ms`,
    );
    notes.push(
      `pg.two_replicas.*.cpu_s: CPU seconds (user+system) in one measured ${duration} s run, mean over the rounds: replicas from /proc/<pid>/stat; load = the load generator's user+system CPU (wrk: its shell's cutime+cstime; autocannon: process.cpuUsage() inside the load process); pg_backends = the backends connected to ${database.name} (pids from pg_stat_activity, /proc/<pid>/stat, each at its last reading); postgres_all = every process named postgres (incl. WAL writer, checkpointer, other databases' backends) plus the postmaster's cutime+cstime for backends that exited. One replica: ${perRequest(one)}, ${round(busy(one) / duration, 2)} of ${config.cpus} CPUs busy with these processes; two: ${perRequest(two)}, ${round(busy(two) / duration, 2)} CPUs. *.waits_per_1k_req and *.preemptions_per_1k_req: context switches of the serving replicas' main threads (/proc/<pid>/status), voluntary (the event loop waited) and not (the scheduler took the CPU mid-work), per 1,000 requests: where 2 replicas, PostgreSQL and the load want more than ${config.cpus} CPUs, each request is more often cut off and resumed with cold caches`,
    );
    // Whatever the number of replicas, req/s cannot pass CPUs / (CPU per request of everything).
    const ceiling = (s) => config.cpus / (busy(s) / Math.max(1, s.total) || Infinity);
    notes.push(
      `pg.two_replicas (where the time goes): everything runs on the same ${config.cpus} CPUs: a request costs ${round((busy(one) * 1e6) / one.total)} us of CPU in all with one replica and ${round((busy(two) * 1e6) / two.total)} us with two, so no number of replicas passes ~${round(ceiling(one))} resp. ~${round(ceiling(two))} req/s here (a ratio of at most ~${round(ceiling(two) / one.rps, 2)} over one replica's ${round(one.rps)}): with one replica its single thread is already beside a PostgreSQL and a load generator that need CPUs of their own, and a second replica adds a process to share the same cores, not cores. Replicas scale with hosts (or cores) to run on; the load average (other work on this machine) takes its share too`,
    );
    if (one.non2xx || one.errors || two.non2xx || two.errors)
      notes.push(`pg.two_replicas: non-2xx ${one.non2xx + two.non2xx}, errors ${one.errors + two.errors}`);
    log(
      `pg: one replica ${round(one.rps)} req/s (${one.all}), two ${round(two.rps)} (${two.all}); CPU s one: A ${round(one.cpu.replicaA)}, load ${round(one.cpu.load)}, pg ${round(one.cpu.backends)}/${round(one.cpu.all)}; two: A ${round(two.cpu.replicaA)}, B ${round(two.cpu.replicaB)}, load ${round(two.cpu.load)}, pg ${round(two.cpu.backends)}/${round(two.cpu.all)}`,
    );

    // --- Engine throughput in-process on PostgreSQL storage (the jobs table is empty). ---
    const queries = timeQueries();
    const cpuBefore = process.cpuUsage();
    const pgBefore = await backendsSeconds();
    // The engine's pool connects and disconnects inside engineThroughput: its backends are read
    // every 100 ms meanwhile (the last 100 ms before the pool closes can be missed).
    let sampling = Promise.resolve();
    const sampler = setInterval(() => {
      sampling = sampling.then(backendsSeconds).catch(() => undefined);
    }, 100);
    let engine;
    try {
      engine = await engineThroughput({ dir: dataDir('engine'), jobs: config.engineJobs, databaseUrl: database.url });
    } finally {
      clearInterval(sampler);
      queries.restore();
    }
    const benchCpu = process.cpuUsage(cpuBefore);
    await sampling;
    const pgSeconds = (await backendsSeconds()) - pgBefore;
    record('pg.jobs.per_s', engine.perSecond, 'jobs/s');
    record('pg.jobs.enqueue_per_s', engine.enqueuePerSecond, 'jobs/s');
    notes.push(
      `pg.jobs.per_s: as jobs.per_s on PostgreSQL storage (pool of 10): ${config.engineJobs} enqueued, then the engine (concurrency 4) until all finished (${engine.completed} completed, ${engine.failed} failed) in ${round(engine.seconds)} s`,
    );
    const perJob = [...queries.times]
      .filter(([, entry]) => entry.count >= config.engineJobs * 0.1)
      .sort((a, b) => b[1].ms - a[1].ms)
      .map(([statement, entry]) => `${statement} ${round(entry.count / config.engineJobs, 1)}× ${round(entry.ms / entry.count, 2)} ms`)
      .join(', ');
    const wall = config.engineJobs / engine.enqueuePerSecond + engine.seconds;
    notes.push(
      `pg.jobs (where the time goes): the finishes and next claims of the workers that finish together go in one committed statement, a round trip and a WAL flush shared by them (group commit, kysely-job-batch.ts: about 0.25 statements a job at concurrency 4, where it was 1 a job; progress is saved at most every 250 ms and these jobs end sooner; plus the enqueue before the timed part), where SQLite${sqlite.jobsPerSecond ? ` (${round(sqlite.jobsPerSecond)} jobs/s in this run)` : ''} writes in-process. Statements a job and wall time per statement seen by the engine (4 workers at once): ${perJob}. CPU over enqueue + engine (${round(wall, 1)} s): bench process ${round((benchCpu.user + benchCpu.system) / 1e6, 2)} s (the engine, its pg client, the local driver's file system calls), PostgreSQL backends ${round(pgSeconds, 2)} s (read every 100 ms), i.e. ${round(((benchCpu.user + benchCpu.system) / 1e6 + pgSeconds) / wall, 2)} of ${config.cpus} CPUs (load average ${loadavg()[0].toFixed(1)}): the rest of the time the four workers wait on statement latency, round trips, WAL flushes and backends waiting for a CPU, not on the engine's thread. Done for this: the claim finds the requesters with queued jobs by skipping through the jobs_requester index (one probe each) instead of grouping every queued job on each claim, takes a requester's oldest job from that index now that it ends with id (it read and sorted the requester's whole queue), and is planned once per connection (its plan took ~1 ms, longer than its run); a worker's finish claims its next job in the same statement; progress saves went from one per step to one per 250 ms (docs/performance.md)`,
    );
    log(`pg: engine ${round(engine.perSecond)} jobs/s; ${perJob}`);

    // --- The same engine run on SQLite and on PostgreSQL, alternated (a fresh file and a fresh database each round). ---
    const alternated = { sqlite: [], postgres: [] };
    for (let pass = 0; pass < config.jobRounds; pass++) {
      alternated.sqlite.push((await engineThroughput({ dir: dataDir(`engine-sqlite-${pass}`), jobs: config.engineJobs })).perSecond);
      const fresh = await createBenchDatabase(serverUrl);
      try {
        alternated.postgres.push((await engineThroughput({ dir: dataDir(`engine-pg-${pass}`), jobs: config.engineJobs, databaseUrl: fresh.url })).perSecond);
      } finally {
        await fresh.drop();
      }
    }
    const sqliteJobs = median(alternated.sqlite);
    const postgresJobs = median(alternated.postgres);
    record('pg.jobs.alternated_sqlite_per_s', sqliteJobs, 'jobs/s');
    record('pg.jobs.alternated_per_s', postgresJobs, 'jobs/s');
    record('pg.jobs.ratio_vs_sqlite', postgresJobs / sqliteJobs, 'ratio');
    notes.push(
      `pg.jobs.ratio_vs_sqlite: the engine run of jobs.per_s (${config.engineJobs} local share tests, concurrency 4) on a fresh SQLite file and on a fresh PostgreSQL database, alternated ${config.jobRounds} times, medians (jobs/s by round: SQLite ${alternated.sqlite.map((x) => round(x)).join('/')}; PostgreSQL ${alternated.postgres.map((x) => round(x)).join('/')})`,
    );
    log(`pg: engine alternated with SQLite: ${round(postgresJobs)} vs ${round(sqliteJobs)} jobs/s`);
  }
}
