// The real server and the CLI (packages/cli), run from the built dist as an operator would.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, spawnChild, stopChild, waitForHttp } from './lib.mjs';

const benchDir = dirname(fileURLToPath(import.meta.url));
/** The V8 flags `npm start` serves with (root package.json, config.serve_node_flags). */
export const serveNodeFlags = JSON.parse(readFileSync(resolve(benchDir, '../../../package.json'), 'utf8')).config.serve_node_flags.split(' ');
// BENCH_CLI_MAIN: run another build of the CLI (experiments on a patched copy of dist).

export const cliMain = process.env.BENCH_CLI_MAIN ? resolve(process.env.BENCH_CLI_MAIN) : resolve(benchDir, '../../cli/dist/main.js');

export function assertBuilt() {
  if (!existsSync(cliMain)) throw new Error(`${cliMain} is missing: build first (npm run bench builds; or turbo run build --filter=@dms/cli...)`);
}

/** `extraEnv`: more DMS_… settings (PostgreSQL: DMS_DATABASE_URL, DMS_SECRET_KEY shared by replicas). */
export function serverEnv({ dataDir, port = 0, adminPassword, logLevel = 'warn', localRoots, extraEnv = {} }) {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('DMS_')) delete env[name];
  return {
    ...env,
    DMS_DATA_DIR: dataDir,
    DMS_HOST: '127.0.0.1',
    DMS_PORT: String(port),
    DMS_ADMIN_PASSWORD: adminPassword,
    DMS_LOG_LEVEL: logLevel,
    ...(localRoots ? { DMS_LOCAL_ROOTS: localRoots } : {}),
    // The bench measures the request path, not the limiter's refusals.
    DMS_RATE_LIMIT_PER_MINUTE: '1000000',
    ...extraEnv,
  };
}

/** `dms ARGS…` with the server's environment; resolves stdout. */
export function runCli(args, env, timeoutMs = 30_000) {
  return new Promise((resolvePromise, reject) => {
    execFile(process.execPath, [cliMain, ...args], { env, timeout: timeoutMs }, (error, stdout, stderr) => {
      if (error) reject(new Error(`dms ${args.join(' ')} failed: ${error.message}\n${stderr}`));
      else resolvePromise(stdout);
    });
  });
}

async function waitForAdmin(env, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!/^\d+\tadmin\t/m.test(await runCli(['user', 'list'], env))) {
    if (Date.now() > deadline) throw new Error(`dms serve created no admin user within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function createApiKey(env) {
  const stdout = await runCli(['apikey', 'create', '--name', 'bench', '--scope', 'nas_shares/show', '--scope', 'nas_shares/index'], env);
  const key = stdout.trim().split('\n').at(-1)?.trim();
  if (!key) throw new Error(`dms apikey create printed no key:\n${stdout}`);
  return key;
}

/** The V8 flags a replica on PostgreSQL runs with: none, as the README starts replicas (`npx dms serve`). */
export const replicaNodeFlags = [];

/**
 * `node ../cli/dist/main.js serve` (the `dms` command of packages/cli), its stdout a pipe read by `cat` (into /dev/null) as journald
 * reads a service's, under `nodeFlags` (by default those `npm start` serves SQLite with). With
 * BENCH_CPU_PROF=DIR the server runs under --cpu-prof and writes its profile to DIR when it stops.
 */
export async function startServer({ dataDir, adminPassword, logLevel, localRoots, label, extraEnv, nodeFlags = serveNodeFlags, main = cliMain }) {
  const port = await freePort();
  const env = serverEnv({ dataDir, port, adminPassword, logLevel, localRoots, extraEnv });
  const profDir = process.env.BENCH_CPU_PROF;
  const nodeArgs = [...nodeFlags, ...(profDir ? ['--cpu-prof', '--cpu-prof-dir', profDir, '--cpu-prof-name', `dms-${label}-${Date.now()}.cpuprofile`] : [])];
  const child = spawnReadChild(process.execPath, [...nodeArgs, main, 'serve'], { env });
  const origin = `http://127.0.0.1:${port}`;
  await waitForHttp(`${origin}/api/v2`, child);
  // `dms serve` creates the first admin (DMS_ADMIN_PASSWORD) only once it listens: a Basic request
  // right after the port answers could find none, and would count as a failed sign-in.
  if (adminPassword) await waitForAdmin(env);
  return { child, pid: child.pid, origin, base: `${origin}/api/v2`, env, stop: () => stopChild(child, 5000) };
}

/** A child whose stdout is a pipe read by `cat` (into /dev/null) in a process of its own, as journald reads a service's. */
function spawnReadChild(command, args, options) {
  const reader = spawnChild('cat', [], { stdin: 'pipe' });
  const child = spawnChild(command, args, { ...options, stdout: reader.stdin });
  // The child holds the pipe's write end now; cat sees its end when the child exits.
  reader.stdin.destroy();
  return child;
}

/** A reference server script of this folder, given its arguments; the port is appended. Its stdout is read as a server's is. */
async function startReference(script, args) {
  const port = await freePort();
  const child = spawnReadChild(process.execPath, [join(benchDir, script), ...args.slice(0, 1), String(port), ...args.slice(1)]);
  const origin = `http://127.0.0.1:${port}`;
  return {
    child,
    pid: child.pid,
    origin,
    stop: () => stopChild(child, 2000),
    ready: (path, headers) => waitForHttp(origin + path, child, 30_000, headers),
  };
}

/** The bare node:http baseline (baseline-server.mjs) answering the pre-rendered bodies. */
export const startBaseline = (bodiesFile, contentType) => startReference('baseline-server.mjs', [bodiesFile, contentType]);

/** The Hono reference (hono-floor-server.mjs) on the seeded database file, or a postgres:// URL. */
export const startHonoFloor = (dbFile) => startReference('hono-floor-server.mjs', [dbFile]);

/** The contract floor (hono-floor-server.mjs --contract): the Hono reference doing what the API contract asks of a show, for `apiKey`. */
export const startContractFloor = (dbFile, apiKey, { accessLog = false } = {}) =>
  startReference('hono-floor-server.mjs', [dbFile, '--contract', apiKey, ...(accessLog ? ['--access-log'] : [])]);
