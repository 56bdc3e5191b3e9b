// Child of local-scan-bench.mjs (run with --expose-gc and npm start's V8 flags): one scan with analytics of the directory
// it is given, as a scan job runs it, in a process that did nothing before; prints its RSS before
// and at most during the scan, the event loop's lateness and the scan's result as one JSON line.
import { ScanAnalyticsBuilder } from '@dms/core';
import { createLocalDriver } from '@dms/core/drivers';
import { startLoopWatch } from './loop-watch.mjs';

const [root, path] = process.argv.slice(2);
const mb = (bytes) => bytes / 1024 / 1024;
const driver = createLocalDriver({ roots: [root] });
const builder = new ScanAnalyticsBuilder(Date.now());
const run = { signal: new AbortController().signal, timeoutMs: 600_000, onStep() {}, onProgress() {}, analytics: builder };
const location = { type: 'local', host: 'localhost', path, options: new Map(), username: null, password: null };

globalThis.gc();
const rssBefore = process.memoryUsage.rss();
let rssMax = rssBefore;
const sampler = setInterval(() => {
  rssMax = Math.max(rssMax, process.memoryUsage.rss());
}, 10);
const loop = startLoopWatch();
loop.resume();
const started = performance.now();
const result = await driver.scan(location, run);
const analytics = builder.result();
const seconds = (performance.now() - started) / 1000;
clearInterval(sampler);
rssMax = Math.max(rssMax, process.memoryUsage.rss());
process.stdout.write(
  `${JSON.stringify({
    result,
    topDirectories: analytics.top_directories.length,
    seconds,
    rssBeforeMb: mb(rssBefore),
    rssMaxMb: mb(rssMax),
    rssGrowthMb: mb(rssMax - rssBefore),
    loop: loop.stop(),
  })}\n`,
);
