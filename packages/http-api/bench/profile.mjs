// Profiles the server under one load: `node bench/profile.mjs show|list [seconds] [--db postgres] [--tracing]`.
// Seeds like run.mjs, runs the server under --cpu-prof, and prints the hottest functions
// (self time), the heaviest files/packages, and inclusive time of dms and library frames.
// BENCH_PROFILE_OUT=FILE keeps the event loop's profile there. DMS_LOG_LEVEL picks the server's log level (warn by default); BENCH_CLI_MAIN another build.
// --db postgres: the server on a dms_bench_<random> database of the local PostgreSQL
// (DMS_BENCH_PG_URL for another server), seeded like pg-bench.mjs and dropped at the end.
// --tracing: the server exports traces at 10 % sampling to a stand-in collector, as tracing-bench.mjs;
// --tracing=SAMPLER with another OTEL_TRACES_SAMPLER (always_off: every request's span unsampled).
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { summarizeProfile } from './cpu-profile.mjs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { cleanupAll, cleanupSync, destroyAgent, makeTempDir } from './lib.mjs';
import { seed, seedPostgres } from './seed.mjs';
import { createApiKey, serverEnv, startServer } from './server.mjs';
import { listPath, throughput } from './http-bench.mjs';
import { createBenchDatabase, defaultPgServerUrl } from './pg-bench.mjs';
import { collectorSink, tracingEnv } from './tracing-bench.mjs';

const argv = process.argv.slice(2);
const dbIndex = argv.indexOf('--db');
const onPostgres = dbIndex !== -1 && argv[dbIndex + 1] === 'postgres';
if (dbIndex !== -1) argv.splice(dbIndex, 2);
const tracingIndex = argv.findIndex((arg) => arg === '--tracing' || arg.startsWith('--tracing='));
const tracingSampler = tracingIndex === -1 ? undefined : argv[tracingIndex].split('=')[1];
if (tracingIndex !== -1) argv.splice(tracingIndex, 1);
const [what = 'show', secondsText = '6'] = argv;
process.on('exit', cleanupSync);

try {
  const dataDir = makeTempDir('dms-prof-');
  const profDir = join(dataDir, 'prof');
  mkdirSync(profDir);
  const database = onPostgres ? await createBenchDatabase(process.env.DMS_BENCH_PG_URL || defaultPgServerUrl) : undefined;
  const seeded = database ? await seedPostgres(database.url) : await seed(dataDir);
  const sink = tracingIndex === -1 ? undefined : await collectorSink();
  const extraEnv = {
    ...(database ? { DMS_DATABASE_URL: database.url, DMS_SECRET_KEY: randomBytes(32).toString('hex') } : {}),
    ...(sink ? tracingEnv(sink.url, tracingSampler) : {}),
  };
  const adminPassword = randomBytes(12).toString('hex');
  const key = await createApiKey(serverEnv({ dataDir, adminPassword, extraEnv }));
  process.env.BENCH_CPU_PROF = profDir;
  const server = await startServer({ dataDir, adminPassword, logLevel: process.env.DMS_LOG_LEVEL ?? 'warn', label: what, extraEnv });
  const headers = { authorization: `Bearer ${key}` };
  const paths = what === 'list' ? [listPath(100_000)] : seeded.showIds.map((id) => `/api/v2/nas_shares/${id}`);
  const result = await throughput({ origin: server.origin, paths, headers, connections: what === 'list' ? 1 : 32, duration: Number(secondsText), warmup: 1 });
  console.log(`${what}: ${result.rps} req/s, ${result.total} requests, p50 ${result.p50} ms, p99 ${result.p99} ms, non2xx ${result.non2xx}`);
  await server.stop();
  // One profile a thread (CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile): the event loop's is thread 0.
  const files = readdirSync(profDir);
  const file = files.find((name) => name.split('.')[4] === '0') ?? files[0];
  console.log(summarizeProfile(join(profDir, file)));
  if (process.env.BENCH_PROFILE_OUT) copyFileSync(join(profDir, file), process.env.BENCH_PROFILE_OUT);
  await database?.drop();
  await sink?.close();
} finally {
  destroyAgent();
  await cleanupAll();
}
