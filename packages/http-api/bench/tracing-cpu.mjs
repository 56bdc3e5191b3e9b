// Tracing's CPU a request, thread by thread, at a held rate (not at saturation, where the
// load generator and the server fight for the same cores and the ratio moves ±10 % a round):
//   node bench/tracing-cpu.mjs '<variants as JSON>' [passes] [rate] [seconds]
// Variants as tracing-variant.mjs reads them ({ name, trace, sampler, env, nodeFlags, cliMain }). Every
// server runs at once; each pass gives each, in turn, `seconds` (1) of the show load at `rate`
// requests a second (4000; 0: as many as are answered), 32 connections, and reads its threads' CPU (/proc/…/schedstat) around it. Prints, per
// variant, the median over the passes (20) of its CPU a request against the first variant's in
// the same pass (the machine's speed drifts between passes, much less within one), then the
// medians of its CPU a request: all threads, the event loop, the rest by thread name. Writes
// nothing to results.json.
import { readFileSync, readdirSync } from 'node:fs';
import { cannon, cleanupAll, destroyAgent, round } from './lib.mjs';
import { assertBuilt } from './server.mjs';
import { collectorSink } from './tracing-bench.mjs';
import { seedForVariants, variantServer } from './tracing-variant.mjs';

const [variantsJson, passesText = '20', rateText = '4000', secondsText = '1'] = process.argv.slice(2);
if (!variantsJson) {
  console.error('usage: node bench/tracing-cpu.mjs \'[{"name":"off"},{"name":"on","trace":true}]\' [passes] [rate]');
  process.exit(2);
}
const variants = JSON.parse(variantsJson);
const rate = Number(rateText);
assertBuilt();
const sink = await collectorSink();
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** CPU seconds of each thread kind of a process, in nanoseconds' precision (/proc/<pid>/task/<tid>/schedstat). */
function threadCpuSeconds(pid) {
  const byKind = {};
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const comm = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      const kind = Number(tid) === pid ? 'MainThread' : comm.replace(/\d+$/, '');
      byKind[kind] = (byKind[kind] ?? 0) + Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e9;
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      byKind.user = (byKind.user ?? 0) + Number(fields[11]) / 100;
      byKind.system = (byKind.system ?? 0) + Number(fields[12]) / 100;
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return byKind;
}
try {
  const { headers, paths, ...seeded } = await seedForVariants('dms-bench-tracing-cpu');
  const servers = [];
  for (const [index, variant] of variants.entries()) {
    servers.push(await variantServer(variant, { ...seeded, sinkUrl: sink.url, dirName: `dms-bench-tracing-cpu-${index}-` })());
  }
  const load = (server, duration) => cannon({ url: server.origin, connections: 32, duration, headers, paths, ...(rate > 0 ? { overallRate: rate } : {}) });
  for (const server of servers) await load(server, 2);
  const samples = variants.map(() => []);
  for (let pass = 0; pass < Number(passesText); pass++) {
    const order = servers.map((_, index) => (index + pass) % servers.length);
    for (const index of order) {
      const before = threadCpuSeconds(servers[index].pid);
      const result = await load(servers[index], Number(secondsText));
      const after = threadCpuSeconds(servers[index].pid);
      const perRequest = Object.fromEntries(Object.keys(after).map((kind) => [kind, ((after[kind] - (before[kind] ?? 0)) * 1e6) / result.requests.total]));
      const { user, system, ...threads } = perRequest;
      samples[index].push({ ...threads, user, system, all: Object.values(threads).reduce((sum, value) => sum + value, 0), non2xx: result.non2xx });
    }
  }
  for (const [index, variant] of variants.entries()) {
    const kinds = [...new Set(samples[index].flatMap((sample) => Object.keys(sample)))].filter(
      (kind) => !['all', 'MainThread', 'non2xx', 'user', 'system'].includes(kind),
    );
    const rest = kinds
      .map((kind) => [kind, median(samples[index].map((sample) => sample[kind] ?? 0))])
      .filter(([, value]) => value >= 0.05)
      .map(([kind, value]) => `${kind} ${round(value, 1)}`)
      .join(', ');
    const non2xx = samples[index].reduce((sum, sample) => sum + sample.non2xx, 0);
    const ratio = median(samples[index].map((sample, pass) => sample.all / samples[0][pass].all));
    const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;
    const userRatio = mean(samples[index].map((sample) => sample.user)) / mean(samples[0].map((sample) => sample.user));
    const systemRatio = mean(samples[index].map((sample) => sample.system)) / mean(samples[0].map((sample) => sample.system));
    const loopRatio = median(samples[index].map((sample, pass) => sample.MainThread / samples[0][pass].MainThread));
    console.log(
      `${variant.name.padEnd(16)} to the first ${round(ratio, 3)} (event loop ${round(loopRatio, 3)}, user ${round(userRatio, 3)}, system ${round(systemRatio, 3)})  all ${round(median(samples[index].map((sample) => sample.all)), 1)} µs  event loop ${round(median(samples[index].map((sample) => sample.MainThread)), 1)}  ${rest}${non2xx ? `  non-2xx ${non2xx}` : ''}  by pass ${samples[index].map((sample, pass) => round(sample.all / samples[0][pass].all, 2)).join('/')}`,
    );
  }
} finally {
  await sink.close();
  destroyAgent();
  await cleanupAll();
}
