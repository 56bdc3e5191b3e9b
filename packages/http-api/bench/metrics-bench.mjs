// /metrics with 10,000 shares (issue 47): a SQLite data dir seeded with 20 NAS, 50 pools and
// 10,000 shares, each with a capacity reading, a health, a latest test and scan and a forecast
// (every per-share gauge has its series: 8 a share), served by `dms serve`; scraped as Prometheus
// scrapes (a bearer key of scope metrics / index, Accept-Encoding: gzip), one at a time. Rows:
// metrics.scrape_ms_10k_shares (median wall time of a scrape), metrics.scrape_cpu_ms_10k_shares
// (the server's CPU a scrape, all its threads), metrics.scrape_loop_cpu_ms_10k_shares (its event
// loop's thread alone), metrics.scrape_bytes_10k_shares
// (the answer's bytes as Prometheus receives them, gzip) and metrics.scrape_text_bytes_10k_shares
// (the same text uncompressed). `npm run bench` runs it; alone, `node bench/metrics-bench.mjs` in
// packages/http-api after a build prints the rows and merges them into results.json.
import http from 'node:http';
import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { openSqliteStorage } from '@dms/core/sqlite';
import { makeTempDir, processCpuSeconds, processThreadCpuSeconds, removeTempDir, round } from './lib.mjs';
import { mergeResults, printResults } from './report.mjs';

const requireFromCore = createRequire(import.meta.resolve('@dms/core'));
const BetterSqlite3 = requireFromCore('better-sqlite3');

export const metricsTargets = {
  'metrics.scrape_ms_10k_shares': { op: '<', value: 100 },
  'metrics.scrape_bytes_10k_shares': { op: '<', value: 5_000_000 },
};

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** 20 NAS, 50 pools, `shares` shares with every figure /metrics shows; names as an admin would give them. */
export async function seedShares(dataDir, shares) {
  const file = join(dataDir, 'dms.sqlite');
  const storage = openSqliteStorage({ file });
  await storage.migrate();
  await storage.close();
  const db = new BetterSqlite3(file);
  db.pragma('journal_mode = WAL');
  const now = Date.now();
  const at = new Date(now).toISOString();
  const nasIds = [];
  const poolIds = [];
  db.transaction(() => {
    const nas = db.prepare('insert into nas (name, host, type, comment, price, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?)');
    for (let i = 0; i < 20; i++)
      nasIds.push(Number(nas.run(`filer-${String(i).padStart(2, '0')}`, `filer${i}.example.com`, 'smb_v3', null, null, at, at).lastInsertRowid));
    const pool = db.prepare('insert into pools (name, comment, type, content, primary_id, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?)');
    for (let i = 0; i < 50; i++) poolIds.push(Number(pool.run(`pool-${String(i).padStart(2, '0')}`, null, 'primary', 'nas', null, at, at).lastInsertRowid));
    const share = db.prepare(
      `insert into nas_shares (nas_id, pool_id, name, path, file_count, file_size_sum, health, last_tested_at, last_test_status, last_scanned_at,
         capacity_bytes, free_bytes, capacity_checked_at, capacity_forecast, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (let i = 0; i < shares; i++) {
      const files = (i * 7919) % 1_000_000;
      const capacity = 2 ** 40 + i * 1_000_000;
      const free = Math.floor(capacity * ((i % 97) / 100));
      const tested = new Date(now - (i % 3600) * 1000).toISOString();
      const scanned = new Date(now - (i % 86_400) * 1000).toISOString();
      const forecast = JSON.stringify({
        samples: 30,
        days: 29.5,
        growth_bytes_per_day: 1e9 + i,
        full_at: new Date(now + (1 + (i % 400)) * 86_400_000).toISOString(),
      });
      const healthy = i % 50 !== 0;
      share.run(
        nasIds[i % nasIds.length],
        i % 5 === 0 ? null : poolIds[i % poolIds.length],
        `projects-${String(i).padStart(5, '0')}`,
        `/export/vol${i % 16}/projects-${i}`,
        files,
        files * 65_536 + i,
        healthy ? 'ok' : 'unreachable',
        tested,
        healthy ? 'completed' : 'failed',
        scanned,
        capacity,
        free,
        tested,
        forecast,
        at,
        at,
      );
    }
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

/** One GET; resolves the wall time, the body's bytes as received and the text. */
function scrape(url, key, gzip) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.get(url, { headers: { authorization: `Bearer ${key}`, ...(gzip ? { 'accept-encoding': 'gzip' } : {}) } }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => {
        const ms = performance.now() - started;
        const body = Buffer.concat(chunks);
        if (res.statusCode !== 200) return reject(new Error(`GET /metrics answered ${res.statusCode}: ${body.toString('utf8').slice(0, 300)}`));
        const text = res.headers['content-encoding'] === 'gzip' ? gunzipSync(body).toString('utf8') : body.toString('utf8');
        resolve({ ms, bytes: body.length, text, encoding: res.headers['content-encoding'] ?? 'identity' });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/**
 * @param {{ record: (name: string, value: number, unit: string) => void, notes: string[], log: (message: string) => void, shares?: number, rounds?: number }} bench
 */
export async function metricsBench({ record, notes, log, shares = 10_000, rounds = 15 }) {
  const { startServer, runCli } = await import('./server.mjs');
  const dataDir = makeTempDir('dms-bench-metrics-');
  let server;
  try {
    let started = performance.now();
    await seedShares(dataDir, shares);
    log(`metrics: seeded ${shares} shares in ${round((performance.now() - started) / 1000, 1)} s`);
    server = await startServer({ dataDir, adminPassword: randomBytes(12).toString('hex'), logLevel: 'warn', label: 'metrics' });
    const stdout = await runCli(['apikey', 'create', '--name', 'prometheus', '--scope', 'metrics/index'], server.env);
    const key = stdout.trim().split('\n').at(-1)?.trim();
    const url = `${server.origin}/metrics`;
    // Warm: the first scrapes compile the formatting and fill SQLite's page cache.
    for (let i = 0; i < 3; i++) await scrape(url, key, true);
    const runs = [];
    const cpuBefore = processCpuSeconds(server.pid);
    const threadsBefore = processThreadCpuSeconds(server.pid);
    for (let i = 0; i < rounds; i++) runs.push(await scrape(url, key, true));
    const cpuMs = ((processCpuSeconds(server.pid) - cpuBefore) * 1000) / rounds;
    const threadMs = Object.entries(processThreadCpuSeconds(server.pid))
      .map(([kind, seconds]) => [kind, ((seconds - (threadsBefore[kind] ?? 0)) * 1000) / rounds])
      .filter(([, ms]) => ms > 0);
    const plain = await scrape(url, key, false);
    const seriesPerShare = plain.text.split('\n').filter((line) => line.startsWith('dms_share_')).length / shares;
    if (runs.some((run) => run.encoding !== 'gzip')) throw new Error('metrics: a scrape asking for gzip was not compressed');
    if (seriesPerShare !== 8) throw new Error(`metrics: ${seriesPerShare} series a share, 8 expected (every figure seeded)`);
    const ms = median(runs.map((run) => run.ms));
    record('metrics.scrape_ms_10k_shares', ms, 'ms');
    record('metrics.scrape_cpu_ms_10k_shares', cpuMs, 'ms');
    record('metrics.scrape_loop_cpu_ms_10k_shares', Object.fromEntries(threadMs)['MainThread'] ?? 0, 'ms');
    record('metrics.scrape_bytes_10k_shares', median(runs.map((run) => run.bytes)), 'bytes');
    record('metrics.scrape_text_bytes_10k_shares', Buffer.byteLength(plain.text), 'bytes');
    notes.push(
      `metrics: GET /metrics of \`dms serve\` (SQLite) with ${shares} shares on 20 NAS and 50 pools, each with capacity, health, latest test and scan and a forecast (${seriesPerShare} series a share), a bearer key of metrics / index and Accept-Encoding: gzip as Prometheus sends; ${rounds} scrapes one at a time after 3 warm-up, median wall time (all: ${runs.map((run) => round(run.ms, 1)).join('/')} ms); scrape_cpu_ms: the server's CPU (user+sys, all its threads, gzip included) over those scrapes / ${rounds}, less sensitive than wall time to other load; by thread: ${threadMs.map(([kind, ms]) => `${kind} ${round(ms, 1)}`).join(', ')} ms (scrape_loop_cpu_ms: the event loop's; V8Worker: the collector's and compiler's helpers; libuv-worker: the thread pool, gzip); scrape_bytes is the gzipped answer as Prometheus receives it, scrape_text_bytes the same text uncompressed (${round(plain.ms, 1)} ms without gzip)`,
    );
    log(`metrics: ${round(ms, 1)} ms a scrape, ${median(runs.map((run) => run.bytes))} bytes gzipped, ${Buffer.byteLength(plain.text)} bytes of text`);
  } finally {
    await server?.stop();
    removeTempDir(dataDir);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { assertBuilt } = await import('./server.mjs');
  assertBuilt();
  const results = [];
  const notes = [];
  const record = (name, value, unit) => results.push({ name, value: round(value, unit === 'ratio' ? 3 : 2), unit });
  await metricsBench({ record, notes, log: (message) => process.stderr.write(`[metrics] ${message}\n`) });
  printResults(results, metricsTargets, notes);
  mergeResults(fileURLToPath(new URL('./results.json', import.meta.url)), results);
}
