// Variants of a traced server against the first one, for taking tracing's cost apart:
//   node bench/tracing-variants.mjs '<variants as JSON>' [rounds]
// Each variant: { "name": "…", "trace": true|false, "sampler": "…", "env": {…}, "nodeFlags": […],
// "cliMain": "…" }, as tracing-variant.mjs reads it. The show load on
// 10,000 seeded shares, every server started afresh each round (freshRoundsShow); prints each
// variant's median ratio to the first, its CPU a request and the ratio of every round.
// Writes nothing to results.json. For example, off against 10 % and 0.1 % sampling:
//   node bench/tracing-variants.mjs '[{"name":"off"},{"name":"10%","trace":true},
//     {"name":"0.1%","trace":true,"env":{"OTEL_TRACES_SAMPLER_ARG":"0.001"}}]' 8
import { cleanupAll, destroyAgent, round } from './lib.mjs';
import { assertBuilt } from './server.mjs';
import { freshRoundsShow } from './http-bench.mjs';
import { collectorSink } from './tracing-bench.mjs';
import { seedForVariants, variantServer } from './tracing-variant.mjs';

const [variantsJson, roundsText = '5'] = process.argv.slice(2);
if (!variantsJson) {
  console.error('usage: node bench/tracing-variants.mjs \'[{"name":"off"},{"name":"on","trace":true}]\' [rounds]');
  process.exit(2);
}
const variants = JSON.parse(variantsJson);
assertBuilt();
const sink = await collectorSink();
try {
  const seeded = await seedForVariants('dms-bench-variants');
  const contenders = variants.map((variant, index) => ({
    headers: seeded.headers,
    start: variantServer(variant, { ...seeded, sinkUrl: sink.url, dirName: `dms-bench-variant-${index}-` }),
  }));
  const results = await freshRoundsShow(contenders, {
    paths: seeded.paths,
    rounds: Number(roundsText),
    connections: 32,
    duration: 3,
    // As tracing-bench.mjs: past the seconds a traced server spends compiling its paths.
    warmup: 6,
  });
  for (const [index, variant] of variants.entries()) {
    const result = results[index];
    const threads = Object.entries(result.threadCpuUsPerReq)
      .filter(([, us]) => us >= 0.05)
      .map(([kind, us]) => `${kind} ${round(us, 1)}`)
      .join(', ');
    console.log(
      `${variant.name.padEnd(16)} ratio ${round(result.ratio, 3)}  CPU a request ${round(result.cpuUsPerReq, 1)} µs (${threads})  by round ${result.all}${result.non2xx + result.errors > 0 ? `  non-2xx ${result.non2xx}, errors ${result.errors}` : ''}`,
    );
  }
  console.log(`${sink.exports()} OTLP export requests`);
} finally {
  await sink.close();
  destroyAgent();
  await cleanupAll();
}
