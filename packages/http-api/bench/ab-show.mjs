// A/B of the show load between builds of the repository, in one run: `node ab-show.mjs ROOT_A
// ROOT_B [ROUNDS]`, each ROOT a checkout whose packages are built (a git worktree of the commit
// under test, say). The first build seeds the data (its seed.mjs and CLI) and serves the Hono
// floor; each build's own bench/server.mjs starts its server, so each runs its own dist. The
// builds and the floor are alternated round by round (alternatedShow) so that a change in
// background load hits all of them; each build's show req/s is divided by the floor's, as the
// bench's show.ratio_vs_hono_floor is. The builds must share their migrations (one seeded file
// serves all of them).
import { randomBytes } from 'node:crypto';
import { cpSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cleanupAll, cleanupSync, destroyAgent, makeTempDir, round } from './lib.mjs';
import { alternatedShow, checkShowBodies } from './http-bench.mjs';

const [rootA, rootB, roundsArg] = process.argv.slice(2);
if (!rootA || !rootB) {
  console.error('usage: node ab-show.mjs ROOT_A ROOT_B [ROUNDS]');
  process.exit(2);
}
const roots = [rootA, rootB].map((root) => resolve(root));
const rounds = Number(roundsArg ?? 6);
const show = { connections: 32, rounds, duration: 5, warmup: 1 };
const benchModule = (root, file) => import(pathToFileURL(join(root, 'packages/http-api/bench', file)).href);

process.on('exit', cleanupSync);
try {
  const { seed } = await benchModule(roots[0], 'seed.mjs');
  const servers = await Promise.all(roots.map((root) => benchModule(root, 'server.mjs')));
  const dataDir = makeTempDir('dms-ab-show-');
  const seeded = await seed(dataDir, { shares: 100_000, showCount: 10_000 });
  const adminPassword = randomBytes(12).toString('hex');
  const key = await servers[0].createApiKey(servers[0].serverEnv({ dataDir, adminPassword }));
  const bearer = { authorization: `Bearer ${key}` };
  const paths = seeded.showIds.map((id) => `/api/v2/nas_shares/${id}`);
  const targets = [];
  for (const [index, server] of servers.entries()) {
    const ownDir = makeTempDir(`dms-ab-show-${index}-`);
    cpSync(dataDir, ownDir, { recursive: true });
    const target = await server.startServer({ dataDir: ownDir, adminPassword, logLevel: 'warn', label: `ab${index}` });
    await checkShowBodies({ base: target.base, key, showIds: seeded.showIds, bodies: seeded.bodies, sample: 10 });
    targets.push(target);
  }
  const floor = await servers[0].startHonoFloor(seeded.file);
  await floor.ready(paths[0]);
  await checkShowBodies({ base: `${floor.origin}/api/v2`, key, showIds: seeded.showIds, bodies: seeded.bodies, sample: 10 });
  const [a, floorRuns, b] = await alternatedShow(
    [
      { target: targets[0], headers: bearer },
      { target: floor, headers: {} },
      { target: targets[1], headers: bearer },
    ],
    { paths, ...show },
  );
  const ratioA = a.rps / floorRuns.rps;
  const ratioB = b.rps / floorRuns.rps;
  console.log(`rounds ${rounds} x (${show.warmup} s warm-up + ${show.duration} s), ${show.connections} connections`);
  console.log(`A ${roots[0]}: ${round(a.rps)} req/s (${a.all}), ratio_vs_hono_floor ${round(ratioA, 3)}`);
  console.log(`B ${roots[1]}: ${round(b.rps)} req/s (${b.all}), ratio_vs_hono_floor ${round(ratioB, 3)}`);
  console.log(`hono floor: ${round(floorRuns.rps)} req/s (${floorRuns.all})`);
  // CPU per request of each server process (median over the rounds): what contention for the CPUs moves least.
  const cpu = (runs) => round(runs.cpuUsPerReq, 2);
  console.log(
    `cpu us/req: A ${cpu(a)}, B ${cpu(b)}, floor ${cpu(floorRuns)}; floor/A ${round(floorRuns.cpuUsPerReq / a.cpuUsPerReq, 3)}, floor/B ${round(floorRuns.cpuUsPerReq / b.cpuUsPerReq, 3)}, A/B ${round(a.cpuUsPerReq / b.cpuUsPerReq, 3)}`,
  );
  // Per round, each build against the floor of the same round: noise that hits one round hits the pair.
  const perRound = (runs) => runs.all.split('/').map(Number);
  const [roundsA, roundsF, roundsB] = [perRound(a), perRound(floorRuns), perRound(b)];
  const median = (values) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];
  console.log(
    `per round A/floor ${roundsA.map((rps, i) => round(rps / roundsF[i], 3)).join('/')}, B/floor ${roundsB.map((rps, i) => round(rps / roundsF[i], 3)).join('/')}`,
  );
  console.log(`median of per-round B/A: ${round(median(roundsB.map((rps, i) => rps / roundsA[i])), 3)}`);
  console.log(`B/A: ${round(ratioB / ratioA, 3)} (non-2xx ${a.non2xx + b.non2xx + floorRuns.non2xx}, errors ${a.errors + b.errors + floorRuns.errors})`);
} finally {
  destroyAgent();
  await cleanupAll();
}
