// Tracing's cost (issue 47): the show load on two servers over copies of one data dir, one with
// tracing off (no OTEL_* variable, as by default) and one with traces exported over OTLP/HTTP at
// 10 % sampling (OTEL_TRACES_SAMPLER=parentbased_traceidratio, ARG 0.1) to a collector stand-in in
// this process that takes and drops them; alternated round by round, medians compared.
// `npm run bench` runs it; alone, `node bench/tracing-bench.mjs` in packages/http-api after a
// build prints the rows and merges them into results.json (other rows kept).
import { randomBytes } from 'node:crypto';
import { cpSync } from 'node:fs';
import { createServer } from 'node:http';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { makeTempDir, removeTempDir, round } from './lib.mjs';
import { mergeResults, printResults } from './report.mjs';
import { seed } from './seed.mjs';
import { createApiKey, serverEnv, startServer } from './server.mjs';
import { alternatedShow, checkShowBodies } from './http-bench.mjs';

export const tracingTargets = {
  'tracing.show_ratio_on_vs_off': { op: '>=', value: 0.95 },
};

const quick = process.env.BENCH_QUICK === '1';

/** A collector stand-in: answers every export 200 and counts the requests (proof that spans went out). */
export async function collectorSink() {
  let exports = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      exports += 1;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, exports: () => exports, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** A server's environment for traces over OTLP/HTTP to `endpoint`, at 10 % sampling unless `sampler` says otherwise. */
export function tracingEnv(endpoint, sampler = 'parentbased_traceidratio') {
  return {
    OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    OTEL_TRACES_SAMPLER: sampler,
    OTEL_TRACES_SAMPLER_ARG: '0.1',
    OTEL_SERVICE_NAME: 'dms-bench',
  };
}

export async function tracingBench({ record, notes, log }) {
  const show = { connections: 32, rounds: quick ? 1 : 3, duration: quick ? 3 : 5, warmup: 1 };
  const offDir = makeTempDir('dms-bench-trace-off-');
  const onDir = makeTempDir('dms-bench-trace-on-');
  const unsampledDir = makeTempDir('dms-bench-trace-unsampled-');
  const sink = await collectorSink();
  const servers = [];
  try {
    const seeded = await seed(offDir, { shares: 10_000, showCount: 2_000 });
    const adminPassword = randomBytes(12).toString('hex');
    const key = await createApiKey(serverEnv({ dataDir: offDir, adminPassword }));
    cpSync(offDir, onDir, { recursive: true });
    cpSync(offDir, unsampledDir, { recursive: true });
    const headers = { authorization: `Bearer ${key}` };
    const paths = seeded.showIds.map((id) => `/api/v2/nas_shares/${id}`);
    const off = await startServer({ dataDir: offDir, adminPassword, logLevel: 'warn', label: 'trace-off' });
    servers.push(off);
    const on = await startServer({
      dataDir: onDir,
      adminPassword,
      logLevel: 'warn',
      label: 'trace-on',
      extraEnv: tracingEnv(sink.url),
    });
    servers.push(on);
    // The same SDK sampling nothing: what a request span costs when it is not recorded.
    const unsampled = await startServer({
      dataDir: unsampledDir,
      adminPassword,
      logLevel: 'warn',
      label: 'trace-unsampled',
      extraEnv: tracingEnv(sink.url, 'always_off'),
    });
    servers.push(unsampled);
    for (const server of servers) await checkShowBodies({ base: server.base, key, showIds: seeded.showIds, bodies: seeded.bodies, sample: 10 });
    const [offRuns, onRuns, unsampledRuns] = await alternatedShow(
      [
        { target: off, headers },
        { target: on, headers },
        { target: unsampled, headers },
      ],
      { paths, ...show },
    );
    // The batch processor sends every 5 s by default: what the last rounds sampled may still be on its way.
    const exports = sink.exports();
    record('tracing.show_ratio_on_vs_off', onRuns.rps / offRuns.rps, 'ratio');
    record('tracing.show_cpu_ratio_off_vs_on', offRuns.cpuUsPerReq / onRuns.cpuUsPerReq, 'ratio');
    record('tracing.otlp_exports', exports, 'count');
    record('tracing.show_ratio_unsampled_vs_off', unsampledRuns.rps / offRuns.rps, 'ratio');
    record('tracing.cpu_us_per_request_off', offRuns.cpuUsPerReq, 'µs');
    record('tracing.cpu_us_per_request_unsampled', unsampledRuns.cpuUsPerReq, 'µs');
    record('tracing.cpu_us_per_request_on', onRuns.cpuUsPerReq, 'µs');
    notes.push(
      `tracing.*: show at ${show.connections} connections on 10,000 seeded shares, a server with tracing off (no OTEL_* variable) and one exporting over OTLP/HTTP (protobuf) at 10 % sampling (parentbased_traceidratio 0.1) to a stand-in collector in the bench process that drops what it gets (${exports} export requests by the end), ${show.rounds} rounds of ${show.warmup} s warm-up + ${show.duration} s alternated, medians (req/s by round: off ${offRuns.all}; on ${onRuns.all}); CPU a request off ${round(offRuns.cpuUsPerReq, 1)} µs, on ${round(onRuns.cpuUsPerReq, 1)} µs. show_ratio_unsampled_vs_off: a third server with the same SDK and exporter sampling nothing (always_off), alternated with the two (req/s by round ${unsampledRuns.all}): the request span's cost when it is not recorded; the rest of on's cost is the sampled tenth's`,
    );
    if ([offRuns, onRuns, unsampledRuns].some((runs) => runs.non2xx || runs.errors)) {
      throw new Error(
        `tracing bench: non-2xx off ${offRuns.non2xx} on ${onRuns.non2xx} unsampled ${unsampledRuns.non2xx}, errors off ${offRuns.errors} on ${onRuns.errors} unsampled ${unsampledRuns.errors}`,
      );
    }
    log(`tracing: show on/off ${round(onRuns.rps / offRuns.rps, 3)} (${round(onRuns.rps)} vs ${round(offRuns.rps)} req/s), ${exports} OTLP exports`);
  } finally {
    for (const server of servers) await server.stop();
    await sink.close();
    removeTempDir(offDir);
    removeTempDir(onDir);
    removeTempDir(unsampledDir);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { assertBuilt } = await import('./server.mjs');
  const { cleanupAll, destroyAgent } = await import('./lib.mjs');
  assertBuilt();
  const results = [];
  const notes = [];
  const record = (name, value, unit) => results.push({ name, value: round(value, unit === 'ratio' ? 3 : 2), unit });
  try {
    await tracingBench({ record, notes, log: (message) => process.stderr.write(`[tracing] ${message}\n`) });
  } finally {
    destroyAgent();
    await cleanupAll();
  }
  printResults(results, tracingTargets, notes);
  mergeResults(fileURLToPath(new URL('./results.json', import.meta.url)), results);
}
