// The two-replica load from wrk (Debian's `wrk`, written in C) when it is installed: one wrk
// process per origin, each cycling over the same paths. A load generator that needs less CPU
// leaves more of this machine's cores to the replicas and PostgreSQL being measured; without
// wrk the bench uses autocannon in a node process of its own (load-process.mjs).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnChild } from './lib.mjs';

/** The wrk binary's path, or undefined when it is not installed. */
export function findWrk() {
  const found = spawnSync('sh', ['-c', 'command -v wrk'], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : undefined;
}

/** A Lua script that sends `headers` and cycles over `paths`, starting at a different one per thread. */
function writeScript(dir, paths, headers) {
  const file = join(dir, 'load.lua');
  const quoted = (text) => JSON.stringify(text); // a JSON string is a valid Lua string for these ASCII paths and headers
  writeFileSync(
    file,
    `local paths = {${paths.map(quoted).join(',')}}
local i = math.random(#paths)
${Object.entries(headers)
  .map(([name, value]) => `wrk.headers[${quoted(name)}] = ${quoted(value)}`)
  .join('\n')}
request = function() i = i % #paths + 1; return wrk.format("GET", paths[i]) end
`,
  );
  return file;
}

const ms = { us: 0.001, ms: 1, s: 1000 };
const toMs = (text) => {
  const match = /^([\d.]+)(us|ms|s)$/.exec(text);
  return match ? Number(match[1]) * ms[match[2]] : NaN;
};

/**
 * Parses wrk's --latency report. `cpuSeconds` comes from the shell that waited for wrk: its
 * cutime + cstime (fields 16 and 17 of /proc/<pid>/stat) hold wrk's user and system CPU.
 */
function parseReport(out) {
  const number = (pattern) => Number(pattern.exec(out)?.[1] ?? 0);
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const stat = /^CPUSTAT (.*)$/m.exec(out)?.[1] ?? '';
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return {
    rps: number(/Requests\/sec:\s+([\d.]+)/),
    total: number(/(\d+) requests in/),
    non2xx: number(/Non-2xx or 3xx responses: (\d+)/),
    errors: errors ? errors.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0,
    p50: toMs(/^\s+50%\s+(\S+)/m.exec(out)?.[1] ?? ''),
    p99: toMs(/^\s+99%\s+(\S+)/m.exec(out)?.[1] ?? ''),
    cpuSeconds: (Number(fields[13]) + Number(fields[14])) / 100,
  };
}

function runWrk(wrk, { origin, connections, seconds, script }) {
  const child = spawnChild(
    'sh',
    ['-c', `"$0" "$@"; echo "CPUSTAT $(cat /proc/$$/stat)"`, wrk, '-t1', `-c${connections}`, `-d${seconds}s`, '--latency', '-s', script, origin],
    { stdout: 'pipe' },
  );
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk.toString()));
  return child.exited.then(({ code, signal }) => {
    if (code !== 0 || !out.includes('Requests/sec')) throw new Error(`wrk against ${origin} failed (${code ?? signal}):\n${child.stderrTail()}\n${out}`);
    return parseReport(out);
  });
}

/**
 * Warm-up, then `onMeasuring()` (the caller reads the CPU of the processes under test), then
 * the measured run: one wrk per origin at once, connections split evenly. Answers the same
 * shape as load-process.mjs.
 */
export async function wrkLoad({ wrk, dir, origins, connections, duration, warmup, headers, paths, onMeasuring }) {
  const script = writeScript(dir, paths, headers);
  const share = (i) => Math.floor(connections / origins.length) + (i < connections % origins.length ? 1 : 0);
  const runAll = (seconds) => Promise.all(origins.map((origin, i) => runWrk(wrk, { origin, connections: share(i), seconds, script })));
  if (warmup > 0) await runAll(warmup);
  await onMeasuring();
  const results = await runAll(duration);
  return {
    rps: results.reduce((sum, run) => sum + run.rps, 0),
    total: results.reduce((sum, run) => sum + run.total, 0),
    non2xx: results.reduce((sum, run) => sum + run.non2xx, 0),
    errors: results.reduce((sum, run) => sum + run.errors, 0),
    p50: Math.max(...results.map((run) => run.p50)),
    p99: Math.max(...results.map((run) => run.p99)),
    cpuSeconds: results.reduce((sum, run) => sum + run.cpuSeconds, 0),
  };
}
