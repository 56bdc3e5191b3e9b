// Tracing's cost (issue 47): the show load on servers over copies of one data dir, one with
// tracing off (no OTEL_* variable, as by default) and one with traces exported over OTLP/HTTP at
// 10 % sampling (OTEL_TRACES_SAMPLER=parentbased_traceidratio, ARG 0.1) to a collector stand-in in
// this process that takes and drops them; started afresh each round (freshRoundsShow), each
// round's ratio taken, medians compared.
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
import { checkShowBodies, freshRoundsShow } from './http-bench.mjs';

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
  // Many short rounds rather than a few long ones: a server process keeps its luck for its whole
  // life (two identical ones served 15 % apart all through a round, address randomization off
  // and V8's seeds fixed), so it is the count of processes, not seconds, that narrows the median.
  // Each server is warmed 6 s before it is measured: a traced server compiles about 40 % more
  // code in its first seconds (940 functions against 666 in the first 4 s, 134 against 90 in the
  // next 4; both a few a second after 8), so with 2 s the slots measured its start, not its serving.
  const show = { connections: 32, rounds: quick ? 2 : 11, duration: 2, warmup: quick ? 1 : 6 };
  const sink = await collectorSink();
  const dirs = [];
  try {
    // Every server, off too, serves a copy of this seeded dir, made the same way: off served the
    // seeded dir itself once, and a copy of it served 1.067 of that (off against off).
    const seedDir = makeTempDir('dms-bench-trace-seed-');
    dirs.push(seedDir);
    const seeded = await seed(seedDir, { shares: 10_000, showCount: 2_000 });
    const adminPassword = randomBytes(12).toString('hex');
    const key = await createApiKey(serverEnv({ dataDir: seedDir, adminPassword }));
    const headers = { authorization: `Bearer ${key}` };
    const paths = seeded.showIds.map((id) => `/api/v2/nas_shares/${id}`);
    /** A copy of the seeded data dir, for a server of its own. */
    const copyOfData = (label) => {
      const dataDir = makeTempDir(`dms-bench-${label}-`);
      dirs.push(dataDir);
      cpSync(seedDir, dataDir, { recursive: true });
      return dataDir;
    };
    /** A contender: a server on `dataDir`, started afresh each round, its answers checked. */
    const contender = (label, dataDir, extraEnv) => {
      return {
        headers,
        start: async () => {
          const server = await startServer({ dataDir, adminPassword, logLevel: 'warn', label, ...(extraEnv ? { extraEnv } : {}) });
          try {
            await checkShowBodies({ base: server.base, key, showIds: seeded.showIds, bodies: seeded.bodies, sample: 10 });
          } catch (error) {
            await server.stop();
            throw error;
          }
          return server;
        },
      };
    };
    const [offRuns, onRuns, unsampledRuns] = await freshRoundsShow(
      [
        contender('trace-off', copyOfData('trace-off')),
        contender('trace-on', copyOfData('trace-on'), tracingEnv(sink.url)),
        // The same SDK sampling nothing: what a request span costs when it is not recorded.
        contender('trace-unsampled', copyOfData('trace-unsampled'), tracingEnv(sink.url, 'always_off')),
      ],
      { paths, ...show },
    );
    const exports = sink.exports();
    record('tracing.show_ratio_on_vs_off', onRuns.ratio, 'ratio');
    record('tracing.show_cpu_ratio_off_vs_on', offRuns.cpuUsPerReq / onRuns.cpuUsPerReq, 'ratio');
    record('tracing.otlp_exports', exports, 'count');
    record('tracing.show_ratio_unsampled_vs_off', unsampledRuns.ratio, 'ratio');
    record('tracing.cpu_us_per_request_off', offRuns.cpuUsPerReq, 'µs');
    record('tracing.cpu_us_per_request_unsampled', unsampledRuns.cpuUsPerReq, 'µs');
    record('tracing.cpu_us_per_request_on', onRuns.cpuUsPerReq, 'µs');
    notes.push(
      `tracing.*: show at ${show.connections} connections on 10,000 seeded shares; a server with tracing off (no OTEL_* variable), one exporting over OTLP/HTTP (protobuf) at 10 % sampling (parentbased_traceidratio 0.1) to a stand-in collector in the bench process that drops what it gets (${exports} export requests in all), and one with the same SDK and exporter sampling nothing (always_off: the request span's cost when it is not recorded). ${show.rounds} rounds, each starting the three afresh, ${show.warmup} s warm-up each, then ${show.duration} s each in a rotated order and again reversed; ratios are each round's against off, medians (on/off by round ${onRuns.all}, middle half ${onRuns.ratioQuartiles.join('-')}; unsampled/off ${unsampledRuns.all}); CPU a request (every thread of the server) off ${round(offRuns.cpuUsPerReq, 1)} µs, unsampled ${round(unsampledRuns.cpuUsPerReq, 1)} µs, on ${round(onRuns.cpuUsPerReq, 1)} µs`,
    );
    if ([offRuns, onRuns, unsampledRuns].some((runs) => runs.non2xx || runs.errors)) {
      throw new Error(
        `tracing bench: non-2xx off ${offRuns.non2xx} on ${onRuns.non2xx} unsampled ${unsampledRuns.non2xx}, errors off ${offRuns.errors} on ${onRuns.errors} unsampled ${unsampledRuns.errors}`,
      );
    }
    log(
      `tracing: show on/off ${round(onRuns.ratio, 3)} (middle half ${onRuns.ratioQuartiles.join('-')}; by round ${onRuns.all}), unsampled/off ${round(unsampledRuns.ratio, 3)}, ${exports} OTLP exports`,
    );
  } finally {
    await sink.close();
    for (const dir of dirs) removeTempDir(dir);
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
