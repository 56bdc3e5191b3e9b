// Variants of a traced server against the first one, for taking tracing's cost apart:
//   node bench/tracing-variants.mjs '<variants as JSON>' [rounds]
// Each variant: { "name": "…", "trace": true|false, "sampler": "…", "env": {…}, "nodeFlags": […], "cliMain": "…" };
// `trace` sets tracingEnv (OTLP/HTTP to a stand-in collector, `sampler` or parentbased 10 %),
// `env` adds or overrides variables, `nodeFlags` come after `npm start`'s own, `cliMain` serves
// another build's packages/cli/dist/main.js (a worktree of another commit, built). The show load on
// 10,000 seeded shares, every server started afresh each round (freshRoundsShow); prints each
// variant's median ratio to the first, its CPU a request and the ratio of every round.
// Writes nothing to results.json. For example, off against 10 % and 0.1 % sampling:
//   node bench/tracing-variants.mjs '[{"name":"off"},{"name":"10%","trace":true},
//     {"name":"0.1%","trace":true,"env":{"OTEL_TRACES_SAMPLER_ARG":"0.001"}}]' 8
import { randomBytes } from 'node:crypto';
import { cpSync } from 'node:fs';
import { cleanupAll, destroyAgent, makeTempDir, round } from './lib.mjs';
import { seed } from './seed.mjs';
import { assertBuilt, createApiKey, serveNodeFlags, serverEnv, startServer } from './server.mjs';
import { freshRoundsShow } from './http-bench.mjs';
import { collectorSink, tracingEnv } from './tracing-bench.mjs';

const [variantsJson, roundsText = '5'] = process.argv.slice(2);
if (!variantsJson) {
  console.error('usage: node bench/tracing-variants.mjs \'[{"name":"off"},{"name":"on","trace":true}]\' [rounds]');
  process.exit(2);
}
const variants = JSON.parse(variantsJson);
assertBuilt();
const sink = await collectorSink();
try {
  const baseDir = makeTempDir('dms-bench-variants-');
  const seeded = await seed(baseDir, { shares: 10_000, showCount: 2_000 });
  const adminPassword = randomBytes(12).toString('hex');
  const key = await createApiKey(serverEnv({ dataDir: baseDir, adminPassword }));
  const headers = { authorization: `Bearer ${key}` };
  const contenders = variants.map((variant, index) => {
    const dataDir = makeTempDir(`dms-bench-variant-${index}-`);
    cpSync(baseDir, dataDir, { recursive: true });
    const extraEnv = { ...(variant.trace ? tracingEnv(sink.url, variant.sampler) : {}), ...variant.env };
    const nodeFlags = [...serveNodeFlags, ...(variant.nodeFlags ?? [])];
    return {
      headers,
      start: () =>
        startServer({
          dataDir,
          adminPassword,
          logLevel: 'warn',
          label: variant.name,
          extraEnv,
          nodeFlags,
          ...(variant.cliMain ? { main: variant.cliMain } : {}),
        }),
    };
  });
  const results = await freshRoundsShow(contenders, {
    paths: seeded.showIds.map((id) => `/api/v2/nas_shares/${id}`),
    rounds: Number(roundsText),
    connections: 32,
    duration: 3,
    warmup: 2,
  });
  for (const [index, variant] of variants.entries()) {
    const result = results[index];
    console.log(
      `${variant.name.padEnd(16)} ratio ${round(result.ratio, 3)}  CPU a request ${round(result.cpuUsPerReq, 1)} µs  by round ${result.all}${result.non2xx + result.errors > 0 ? `  non-2xx ${result.non2xx}, errors ${result.errors}` : ''}`,
    );
  }
  console.log(`${sink.exports()} OTLP export requests`);
} finally {
  await sink.close();
  destroyAgent();
  await cleanupAll();
}
