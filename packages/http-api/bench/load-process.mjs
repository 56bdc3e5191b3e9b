// The load generator as a process of its own (the two-replica run): autocannon against one or
// more origins at once, the connections split evenly, every instance cycling over the same paths.
// Usage: node load-process.mjs SPEC.json, where SPEC is
//   { origins: [url…], connections, duration, warmup, headers, pathsFile }
// Prints {"phase":"measuring"} when the warm-up is over, then one JSON line: { rps, total, non2xx, errors, p50, p99, perOrigin: [...],
// cpuSeconds } where cpuSeconds is this process's user+system CPU during the measured run only.
import { readFileSync } from 'node:fs';
import { cannon } from './lib.mjs';

const spec = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const paths = JSON.parse(readFileSync(spec.pathsFile, 'utf8'));
const { origins, connections, duration, warmup, headers } = spec;
const share = (i) => Math.floor(connections / origins.length) + (i < connections % origins.length ? 1 : 0);

const runAll = (seconds) => Promise.all(origins.map((url, i) => cannon({ url, connections: share(i), duration: seconds, headers, paths })));

if (warmup > 0) await runAll(warmup);
// The parent reads the servers' and PostgreSQL's CPU when this line arrives and when we exit.
process.stdout.write('{"phase":"measuring"}\n');
const cpuBefore = process.cpuUsage();
const results = await runAll(duration);
const cpu = process.cpuUsage(cpuBefore);

const perOrigin = results.map((result, i) => ({
  origin: origins[i],
  connections: share(i),
  rps: result.requests.average,
  total: result.requests.total,
  p50: result.latency.p50,
  p99: result.latency.p99,
  non2xx: result.non2xx,
  errors: result.errors + result.timeouts,
}));
const total = perOrigin.reduce((sum, run) => sum + run.total, 0);
process.stdout.write(
  JSON.stringify({
    rps: perOrigin.reduce((sum, run) => sum + run.rps, 0),
    total,
    non2xx: perOrigin.reduce((sum, run) => sum + run.non2xx, 0),
    errors: perOrigin.reduce((sum, run) => sum + run.errors, 0),
    // Across instances: the worst p99 (each instance only knows its own histogram).
    p50: Math.max(...perOrigin.map((run) => run.p50)),
    p99: Math.max(...perOrigin.map((run) => run.p99)),
    perOrigin,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
  }) + '\n',
);
// Nothing else to wait for (stdout to a pipe is synchronous on Linux).
process.exit(0);
