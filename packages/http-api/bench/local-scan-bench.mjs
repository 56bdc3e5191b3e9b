// Local scans with analytics (issue 43): the local driver's scan, in this process, against
// `du -sb` and against itself without analytics, on one 200,000-file tree; then the memory a
// 1,000,000-entry scan adds, in a process of its own (local-scan-child.mjs). The event loop's
// worst delay is taken during every scan with analytics. `npm run bench` runs it; alone,
// `node bench/local-scan-bench.mjs` in packages/http-api after a build prints the rows and
// merges them into results.json (other rows kept).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ScanAnalyticsBuilder } from '@dms/core';
import { autoScanEngine, createLocalDriver } from '@dms/core/drivers';
import { makeTempDir, removeTempDir, round } from './lib.mjs';
import { mergeResults, printResults } from './report.mjs';
import { duSeconds, generateTree } from './scan-bench.mjs';
import { startIdleProcessWatch, startLoopWatch } from './loop-watch.mjs';
import { serveNodeFlags } from './server.mjs';

export const localScanTargets = {
  'scan.ratio_vs_du': { op: '<=', value: 0.7 },
  'scan.analytics_cost_ratio': { op: '<=', value: 1.15 },
  'scan.rss_growth_mb': { op: '<=', value: 64 },
  'scan.local.loop_delay_max_ms': { op: '<', value: 100 },
  'scan.local.loop_stalls_over_50ms': { op: '<=', value: 0 },
};

const execFileAsync = promisify(execFile);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const shown = (values) => values.map((x) => round(x, 3)).join('/');

function location(path) {
  return { type: 'local', host: 'localhost', path, options: new Map(), username: null, password: null };
}

/** One scan by the local driver as a scan job runs it; with `analytics`, into the builder. */
async function scanOnce(driver, path, { analytics }) {
  const builder = analytics ? new ScanAnalyticsBuilder(Date.now()) : undefined;
  const run = { signal: new AbortController().signal, timeoutMs: 600_000, onStep() {}, onProgress() {}, ...(builder ? { analytics: builder } : {}) };
  const started = performance.now();
  const result = await driver.scan(location(path), run);
  const seconds = (performance.now() - started) / 1000;
  return { seconds, result, analytics: builder?.result() };
}

function check(label, result, tree) {
  if (result.file_count !== tree.count || result.file_size_sum !== tree.sum) {
    throw new Error(`${label} scan wrong: ${JSON.stringify(result)} (want file_count ${tree.count}, file_size_sum ${tree.sum})`);
  }
}

/**
 * @param {{ record: (name: string, value: number, unit: string) => void, notes: string[], log: (message: string) => void, rounds?: number, bigRuns?: number, small?: { dirs: number, files: number }, large?: { dirs: number, files: number } }} bench
 */
export async function localScanBench({ record, notes, log, rounds = 5, bigRuns = 3, small = { dirs: 200, files: 1000 }, large = { dirs: 1000, files: 1000 } }) {
  const base = existsSync('/dev/shm') ? makeTempDir('dms-bench-local-scan-', '/dev/shm') : makeTempDir('dms-bench-local-scan-');
  const onTmpfs = base.startsWith('/dev/shm') ? ' on tmpfs' : '';
  try {
    const treeDir = join(base, 'tree');
    let started = performance.now();
    const tree = generateTree(treeDir, small);
    log(`local scan: ${tree.count} files generated in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    // The driver jobs use (auto engine: the C walker where it was built, else worker threads for a
    // scan with analytics), and the same engine's walk without analytics (auto would take GNU find
    // there when the C walker is absent).
    const engine = await autoScanEngine(true);
    const driver = createLocalDriver({ roots: [base] });
    const sameEngine = createLocalDriver({ roots: [base], scanEngine: engine === 'native' ? 'native' : 'workers' });
    const walkerName = engine === 'native' ? 'the C walker of @dms/native-walk' : 'worker threads';
    const find = createLocalDriver({ roots: [base], scanEngine: 'find' });

    // Warm: one of each first (inode cache, worker code), then alternated `rounds` times.
    duSeconds(treeDir, 1);
    const loop = startLoopWatch();
    const idle = await startIdleProcessWatch();
    const seconds = { du: [], analytics: [], plain: [], find: [] };
    for (let round = 0; round <= rounds; round++) {
      const du = duSeconds(treeDir, 1);
      if (du.bytes < tree.sum) throw new Error(`du -sb counted ${du.bytes} bytes, fewer than the ${tree.sum} made`);
      loop.resume();
      idle.resume();
      const withAnalytics = await scanOnce(driver, treeDir, { analytics: true });
      loop.pause();
      idle.pause();
      check('analytics', withAnalytics.result, tree);
      const histogram = withAnalytics.analytics.size_histogram.reduce((sum, row) => sum + row.files, 0);
      if (histogram !== tree.count) throw new Error(`analytics size histogram holds ${histogram} files, want ${tree.count}`);
      const plain = await scanOnce(sameEngine, treeDir, { analytics: false });
      check('plain', plain.result, tree);
      const byFind = await scanOnce(find, treeDir, { analytics: false });
      check('find', byFind.result, tree);
      if (round === 0) continue;
      seconds.du.push(du.seconds);
      seconds.analytics.push(withAnalytics.seconds);
      seconds.plain.push(plain.seconds);
      seconds.find.push(byFind.seconds);
    }
    const du = median(seconds.du);
    const analytics = median(seconds.analytics);
    const plain = median(seconds.plain);
    const byFind = median(seconds.find);
    record('scan.local.seconds', analytics, 's');
    record('scan.ratio_vs_du', analytics / du, 'ratio');
    record('scan.analytics_cost_ratio', analytics / plain, 'ratio');
    notes.push(
      `scan.ratio_vs_du / scan.analytics_cost_ratio: ${tree.count} files in ${small.dirs} dirs${onTmpfs}, warm; du -sb, the local driver's scan with analytics (auto engine: ${walkerName} into ScanAnalyticsBuilder, as a scan job), the same walk without analytics, and GNU find (totals only), alternated ${rounds} times after a warm-up, medians: du ${round(du, 3)} s (${shown(seconds.du)}), with analytics ${round(analytics, 3)} s (${shown(seconds.analytics)}), without ${round(plain, 3)} s (${shown(seconds.plain)}), find ${round(byFind, 3)} s (${shown(seconds.find)}, ${round(byFind / du, 3)}x du)`,
    );
    log(`local scan (${engine}): du ${round(du, 3)} s, with analytics ${round(analytics, 3)} s, without ${round(plain, 3)} s, find ${round(byFind, 3)} s`);

    // 1,000,000 entries, scanned with analytics in a process of its own: what the scan adds to RSS.
    const bigDir = join(base, 'big');
    started = performance.now();
    const big = generateTree(bigDir, large);
    const entries = big.count + large.dirs + 1;
    log(`local scan: ${entries} entries generated in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    duSeconds(bigDir, 1);
    // Taken `bigRuns` times: the median growth is the row; every run's loop delays count.
    const runs = [];
    for (let run = 0; run < bigRuns; run++) {
      idle.resume();
      // Under `npm start`'s V8 flags: the scan runs inside the server, whose young generation they bound.
      const { stdout } = await execFileAsync(
        process.execPath,
        [...serveNodeFlags, '--expose-gc', fileURLToPath(new URL('./local-scan-child.mjs', import.meta.url)), base, bigDir],
        {
          maxBuffer: 1 << 20,
        },
      );
      idle.pause();
      const measured = JSON.parse(stdout);
      check('1,000,000-entry', measured.result, big);
      loop.add(measured.loop);
      runs.push(measured);
    }
    const measured = [...runs].sort((a, b) => a.rssGrowthMb - b.rssGrowthMb)[Math.floor(runs.length / 2)];
    const worst = loop.stop();
    const machine = await idle.stop();
    record('scan.rss_growth_mb', measured.rssGrowthMb, 'MB');
    record('scan.local.loop_delay_max_ms', worst.maxMs, 'ms');
    record('scan.local.loop_stalls_over_50ms', worst.stallsOver50Ms, 'count');
    record('scan.local.loop_busy_max_ms', worst.busyMaxMs, 'ms');
    record('scan.local.idle_process_loop_delay_max_ms', machine.maxMs, 'ms');
    record('scan.local.idle_process_loop_stalls_over_50ms', machine.stallsOver50Ms, 'count');
    notes.push(
      `scan.rss_growth_mb: a scan with analytics of ${entries} entries (${large.dirs} dirs × ${large.files} files${onTmpfs}) in a process of its own under npm start's V8 flags (${serveNodeFlags.join(' ')}), RSS sampled every 10 ms, ${bigRuns} runs (growth ${runs.map((r) => round(r.rssGrowthMb, 1)).join('/')} MB), the median run: ${round(measured.rssBeforeMb)} MB before (after a GC), ${round(measured.rssMaxMb)} MB at most (${round(measured.seconds, 2)} s); scan.local.loop_delay_*: the event loop's lateness on a 10 ms timer during every scan with analytics above (${worst.samples} ticks), worst and stalls over 50 ms; scan.local.loop_busy_max_ms: the most CPU the event loop's thread spent between two of those ticks (the loop held by work, not waiting for a core); scan.local.idle_process_*: the same timer in an idle process of its own over the same moments (${machine.samples} ticks), what the machine's load alone does to an event loop`,
    );
    log(`local scan: 1M entries in ${round(measured.seconds, 2)} s, RSS +${round(measured.rssGrowthMb)} MB; loop delay max ${round(worst.maxMs)} ms`);
  } finally {
    removeTempDir(base);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { assertBuilt } = await import('./server.mjs');
  assertBuilt();
  const results = [];
  const notes = [];
  const record = (name, value, unit) => results.push({ name, value: round(value, unit === 'ratio' ? 3 : 2), unit });
  await localScanBench({ record, notes, log: (message) => process.stderr.write(`[local-scan] ${message}\n`) });
  printResults(results, localScanTargets, notes);
  mergeResults(fileURLToPath(new URL('./results.json', import.meta.url)), results);
}
