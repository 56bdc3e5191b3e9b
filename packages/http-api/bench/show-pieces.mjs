// Where a show request's CPU goes, piece by piece (issue 27 item 2):
// `node bench/show-pieces.mjs [--before OTHER_CLI_MAIN] [--level warn|info] [--rounds N] [--top N]`.
// Seeds 20,000 shares, then runs the server (this build; with --before another build too, e.g.
// a worktree of an earlier commit) and the Hono floor, each under --cpu-prof, under the same
// show load, alternated round by round. Only samples taken while a process was under load
// count; each is charged to the innermost frame on its stack that belongs to a piece
// (authentication, rate limit, SQLite read, ETag ...), and the table gives µs per request.
// Profiling slows every process alike; compare pieces within one run, not with other runs.
// --top N lists, per process, the N frames with the most self time among those no piece claims.
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanupAll, cleanupSync, destroyAgent, freePort, makeTempDir, round, spawnChild, stopChild, waitForHttp } from './lib.mjs';
import { seed } from './seed.mjs';
import { createApiKey, serverEnv } from './server.mjs';
import { throughput } from './http-bench.mjs';

const options = { before: undefined, level: 'warn', rounds: 3, duration: 3, top: 0 };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--before') options.before = resolve(argv[++i]);
  else if (argv[i] === '--level') options.level = argv[++i];
  else if (argv[i] === '--rounds') options.rounds = Number(argv[++i]);
  else if (argv[i] === '--top') options.top = Number(argv[++i]);
  else throw new Error(`show-pieces: unknown argument '${argv[i]}' (known: --before CLI_MAIN, --level LEVEL, --rounds N, --top N)`);
}

/** Innermost first: the first piece a frame of the stack (leaf to root) belongs to takes the sample. */
const pieces = [
  ['access log', (f) => /\/(pino|sonic-boom|@pinojs)\//.test(f.url) || /http\/batched-destination\.js$/.test(f.url)],
  ['metrics', (f) => /metrics\/request-metrics|prom-client/.test(f.url)],
  ['request id, common headers', (f) => /pipeline\/observe\.js$/.test(f.url) && f.functionName === 'begin'],
  ['rate limit', (f) => f.functionName === 'chargeCredential' || /rate-limiter-flexible/.test(f.url)],
  ['authentication', (f) => ['authenticateRequest', 'credentialFromAuthorization'].includes(f.functionName)],
  ['scope check', (f) => /scopes\/scope-check\.js$/.test(f.url)],
  [
    'SQLite read',
    (f) => /kysely-prepared\.js$|sqlite-storage\.js$|better-sqlite3/.test(f.url) || (/hono-floor-server\.mjs$/.test(f.url) && f.functionName === 'get'),
  ],
  ['share lookup, present', (f) => /services\/share-service\.js$/.test(f.url)],
  ['ETag, headers, Response', (f) => /http\/respond\.js$/.test(f.url) && f.functionName === 'respond'],
  ['JSON, Response (floor)', (f) => /hono-floor-server\.mjs$/.test(f.url) && f.functionName === 'answer'],
  ['JSON serialization', (f) => /http\/respond\.js$/.test(f.url) && f.functionName === 'respondJson'],
  ['router', (f) => /hono\/dist\/(router|utils\/url)/.test(f.url)],
  ['pipeline, routes, Hono', (f) => /packages\/http-api\/dist\/|hono\/dist\//.test(f.url) && !/@hono\/node-server/.test(f.url)],
  ['garbage collection', (f) => f.functionName === '(garbage collector)'],
];
const rest = 'node:http, @hono/node-server, kernel';

function piecesOf(file, windows) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const pieceOfNode = new Map();
  const pieceOf = (id) => {
    if (pieceOfNode.has(id)) return pieceOfNode.get(id);
    for (let current = id; current !== undefined; current = parent.get(current)) {
      const frame = byId.get(current).callFrame;
      const found = pieces.find(([, test]) => test(frame));
      if (found) {
        pieceOfNode.set(id, found[0]);
        return found[0];
      }
    }
    pieceOfNode.set(id, rest);
    return rest;
  };
  const us = new Map();
  /** Self time of the frames no piece claims, by function and place: what `--top` lists. */
  const unclaimed = new Map();
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    if (!windows.some(([from, to]) => at >= from && at <= to)) continue;
    const frame = byId.get(profile.samples[i]).callFrame;
    if (frame.functionName === '(idle)') continue;
    const piece = pieceOf(profile.samples[i]);
    us.set(piece, (us.get(piece) ?? 0) + (profile.timeDeltas[i] ?? 0));
    if (piece === rest) {
      const place = `${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*node_modules\//, '').replace(/^.*packages\//, '')}:${frame.lineNumber + 1}`;
      unclaimed.set(place, (unclaimed.get(place) ?? 0) + (profile.timeDeltas[i] ?? 0));
    }
  }
  return { us, unclaimed };
}

process.on('exit', cleanupSync);
try {
  const dataDir = makeTempDir('dms-pieces-');
  const seeded = await seed(dataDir, { shares: 20_000, showCount: 2_000 });
  const adminPassword = randomBytes(12).toString('hex');
  const key = await createApiKey(serverEnv({ dataDir, adminPassword }));
  const profDir = join(dataDir, 'profiles');
  mkdirSync(profDir);
  const paths = seeded.showIds.map((id) => `/api/v2/nas_shares/${id}`);
  const benchDir = fileURLToPath(new URL('.', import.meta.url));

  // Each contender: a process under --cpu-prof writing <name>.cpuprofile when it stops.
  const contenders = [];
  const start = async (name, script, args, env, headers) => {
    const port = await freePort();
    const child = spawnChild(
      process.execPath,
      ['--cpu-prof', '--cpu-prof-dir', profDir, '--cpu-prof-name', `${name}.cpuprofile`, script, ...args, ...(env ? [] : [String(port)])],
      {
        env: env ? { ...env, DMS_PORT: String(port) } : process.env,
      },
    );
    const origin = `http://127.0.0.1:${port}`;
    await waitForHttp(`${origin}${env ? '/api/v2' : paths[0]}`, child);
    contenders.push({ name, child, origin, headers, windows: [], requests: 0 });
  };
  const builds = [['dms', resolve(benchDir, '../../cli/dist/main.js')], ...(options.before ? [['before', options.before]] : [])];
  for (const [name, cliMain] of builds) {
    // A copy of the data per server: one service per data dir.
    const dir = makeTempDir(`dms-pieces-${name}-`);
    cpSync(dataDir, dir, { recursive: true, filter: (source) => source !== profDir });
    const env = serverEnv({ dataDir: dir, adminPassword, logLevel: options.level });
    await start(name, cliMain, ['serve'], env, { authorization: `Bearer ${key}` });
  }
  await start('floor', join(benchDir, 'hono-floor-server.mjs'), [seeded.file], undefined, {});

  const now = () => Number(process.hrtime.bigint() / 1000n);
  for (const contender of contenders)
    await throughput({ origin: contender.origin, paths, headers: contender.headers, connections: 32, duration: 2, warmup: 0 });
  for (let pass = 0; pass < options.rounds; pass++) {
    for (const contender of contenders) {
      const from = now();
      const run = await throughput({ origin: contender.origin, paths, headers: contender.headers, connections: 32, duration: options.duration, warmup: 0 });
      contender.windows.push([from, now()]);
      contender.requests += run.total;
      if (run.non2xx || run.errors) throw new Error(`${contender.name}: non-2xx ${run.non2xx}, errors ${run.errors}`);
    }
  }
  for (const contender of contenders) await stopChild(contender.child, 10_000);

  const profiles = contenders.map((contender) => piecesOf(join(profDir, `${contender.name}.cpuprofile`), contender.windows));
  const perRequest = (map, contender) => new Map([...map].map(([key, total]) => [key, total / contender.requests]));
  const tables = profiles.map(({ us }, index) => perRequest(us, contenders[index]));
  const names = [...pieces.map(([name]) => name), rest];
  const cell = (value) => (value === undefined ? '' : round(value, 2).toFixed(2)).padStart(9);
  console.log(`µs of CPU per request (profiled, DMS_LOG_LEVEL=${options.level}, ${options.rounds} rounds of ${options.duration} s, 32 connections)`);
  console.log(`${'piece'.padEnd(36)}${contenders.map((c) => c.name.padStart(9)).join('')}`);
  for (const name of names) {
    if (tables.every((table) => !table.get(name))) continue;
    console.log(`${name.padEnd(36)}${tables.map((table) => cell(table.get(name))).join('')}`);
  }
  const totals = tables.map((table) => [...table.values()].reduce((sum, value) => sum + value, 0));
  console.log(`${'total'.padEnd(36)}${totals.map(cell).join('')}`);
  console.log(`${'requests'.padEnd(36)}${contenders.map((c) => String(c.requests).padStart(9)).join('')}`);
  for (const [index, { unclaimed }] of options.top > 0 ? profiles.entries() : []) {
    console.log(`\n${contenders[index].name}: the ${options.top} heaviest frames of '${rest}' (self µs per request)`);
    const heaviest = [...perRequest(unclaimed, contenders[index])].sort((a, b) => b[1] - a[1]).slice(0, options.top);
    for (const [place, value] of heaviest) console.log(`${cell(value)}  ${place}`);
  }
} finally {
  destroyAgent();
  await cleanupAll();
}
