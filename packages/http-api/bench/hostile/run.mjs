// `node bench/hostile/run.mjs [INPUT…]`: the hostile section of the bench alone (all inputs, or
// the named ones), after a build; prints one line per input. `npm run bench` runs it too.
import { cleanupAll } from '../lib.mjs';
import { assertBuilt } from '../server.mjs';
import { hostileInputs, measureHostile } from './harness.mjs';

assertBuilt();
const inputs = process.argv.length > 2 ? process.argv.slice(2) : hostileInputs;
const log = (message) => process.stderr.write(`[hostile] ${message}\n`);
try {
  for (const input of inputs) {
    const result = await measureHostile(input, log);
    console.log(
      `hostile.${input}: loop_delay_max_ms ${result.loopDelayMaxMs.toFixed(1)}, rss_growth_mb ${result.rssGrowthMb.toFixed(1)}, healthz_max_ms ${Math.round(result.healthzMaxMs)}${Object.entries(
        result.rows,
      )
        .map(([row, { value }]) => `, ${row} ${value.toFixed(3)}`)
        .join('')} (${result.seconds.toFixed(1)} s) — ${result.note ?? ''}`,
    );
  }
} finally {
  await cleanupAll();
}
