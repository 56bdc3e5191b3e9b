// Profiles the server under one load: `node bench/profile.mjs show|list [seconds]`.
// Seeds like run.mjs, runs the server under --cpu-prof, and prints the hottest functions
// (self time), the heaviest files/packages, and inclusive time of dms and library frames.
// DMS_LOG_LEVEL picks the server's log level (warn by default); BENCH_CLI_MAIN another build.
import { mkdirSync, readdirSync } from 'node:fs';
import { summarizeProfile } from './cpu-profile.mjs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { cleanupAll, cleanupSync, destroyAgent, makeTempDir } from './lib.mjs';
import { seed } from './seed.mjs';
import { createApiKey, serverEnv, startServer } from './server.mjs';
import { listPath, throughput } from './http-bench.mjs';

const [what = 'show', secondsText = '6'] = process.argv.slice(2);
process.on('exit', cleanupSync);

try {
  const dataDir = makeTempDir('dms-prof-');
  const profDir = join(dataDir, 'prof');
  mkdirSync(profDir);
  process.env.BENCH_CPU_PROF = profDir;
  const seeded = await seed(dataDir);
  const adminPassword = randomBytes(12).toString('hex');
  const key = await createApiKey(serverEnv({ dataDir, adminPassword }));
  const server = await startServer({ dataDir, adminPassword, logLevel: process.env.DMS_LOG_LEVEL ?? 'warn', label: what });
  const headers = { authorization: `Bearer ${key}` };
  const paths = what === 'list' ? [listPath(100_000)] : seeded.showIds.map((id) => `/api/v2/nas_shares/${id}`);
  const result = await throughput({ origin: server.origin, paths, headers, connections: what === 'list' ? 1 : 32, duration: Number(secondsText), warmup: 1 });
  console.log(`${what}: ${result.rps} req/s, ${result.total} requests, p50 ${result.p50} ms, p99 ${result.p99} ms, non2xx ${result.non2xx}`);
  await server.stop();
  const [file] = readdirSync(profDir);
  console.log(summarizeProfile(join(profDir, file)));
} finally {
  destroyAgent();
  await cleanupAll();
}
