// Storage faults (issue 21): what another process's SQLite write lock costs the requests that
// do not need it, what the durable commit (synchronous=FULL) costs a write, and what the
// start-up integrity check costs on the bench's 100,000 shares.
import { createRequire } from 'node:module';
import { statfsSync } from 'node:fs';
import { join } from 'node:path';
import { openSqliteStorage } from '@dms/core/sqlite';
import { makeTempDir, percentile, removeTempDir, request, spawnChild, stopChild } from './lib.mjs';
import { assertBuilt, startServer } from './server.mjs';
import { seed } from './seed.mjs';

const requireFromCore = createRequire(import.meta.resolve('@dms/core'));
const BetterSqlite3 = requireFromCore('better-sqlite3');
const betterSqlite3Path = requireFromCore.resolve('better-sqlite3');

const password = 'bench-faults-password';
const auth = `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;
/** How long the other process holds the write lock. */
const holdMs = 5000;

/**
 * @param {{ record: (name: string, value: number, unit: string) => void, notes: string[], log: (message: string) => void }} bench
 */
export async function faultsBench({ record, notes, log }) {
  assertBuilt();
  await lockedDatabase({ record, notes, log });
  await commitCost({ record, notes, log });
  await integrityCheckCost({ record, notes, log });
}

/** A second process holds BEGIN EXCLUSIVE for ~5 s while /healthz, a read and a write are sent. */
async function lockedDatabase({ record, notes, log }) {
  const dataDir = makeTempDir('dms-bench-faults-');
  const server = await startServer({ dataDir, adminPassword: password, label: 'faults' });
  try {
    const created = await request(`${server.base}/nas`, {
      method: 'POST',
      headers: { authorization: auth },
      body: { name: 'faults-nas', host: 'filer.example.com', type: 'smb_v3' },
    });
    if (created.status !== 201) throw new Error(`POST /nas answered ${created.status}: ${created.body}`);
    const readUrl = `${server.base}/nas/${created.json().id}`;
    // The credential checked once before: the lock window measures storage, not argon2.
    await request(readUrl, { headers: { authorization: auth } });

    const holder = await holdLock(join(dataDir, 'dms.sqlite'), holdMs);
    const lockedAt = performance.now();
    const writeStarted = performance.now();
    const write = request(`${server.base}/nas`, {
      method: 'POST',
      headers: { authorization: auth },
      body: { name: 'during-lock', host: 'filer.example.com', type: 'smb_v3' },
    }).then((response) => ({
      status: response.status,
      retryAfter: response.headers['retry-after'],
      ms: performance.now() - writeStarted,
    }));
    const health = [];
    const reads = [];
    let failures = 0;
    while (performance.now() - lockedAt < holdMs - 500) {
      for (const [url, into, headers] of [
        [`${server.origin}/healthz`, health, {}],
        [readUrl, reads, { authorization: auth }],
      ]) {
        const started = performance.now();
        const response = await request(url, { headers });
        into.push(performance.now() - started);
        if (response.status !== 200) failures += 1;
      }
    }
    const refused = await write;
    await holder.released;
    const releasedAt = performance.now();
    let recovered;
    for (;;) {
      const after = await request(`${server.base}/nas`, {
        method: 'POST',
        headers: { authorization: auth },
        body: { name: `after-lock-${Math.random()}`, host: 'filer.example.com', type: 'smb_v3' },
      });
      if (after.status === 201) {
        recovered = performance.now() - releasedAt;
        break;
      }
      if (performance.now() - releasedAt > 10_000) throw new Error(`writes still answer ${after.status} 10 s after the lock went`);
    }
    health.sort((a, b) => a - b);
    reads.sort((a, b) => a - b);
    record('faults.sqlite_lock.healthz_p99_ms', percentile(health, 99), 'ms');
    record('faults.sqlite_lock.read_p99_ms', percentile(reads, 99), 'ms');
    record('faults.sqlite_lock.write_503_ms', refused.status === 503 ? refused.ms : Number.NaN, 'ms');
    record('faults.sqlite_lock.recovery_ms', recovered, 'ms');
    log(
      `locked database: healthz p99 ${percentile(health, 99).toFixed(1)} ms over ${health.length}, read p99 ${percentile(reads, 99).toFixed(1)} ms, write ${refused.status} after ${refused.ms.toFixed(0)} ms`,
    );
    notes.push(
      `faults.sqlite_lock: another process (better-sqlite3) held BEGIN EXCLUSIVE on dms.sqlite for ${holdMs / 1000} s; meanwhile ${health.length} sequential GET /healthz and ${reads.length} GET /nas/{id} (${failures} not 200), ` +
        `max ${health.at(-1).toFixed(1)} and ${reads.at(-1).toFixed(1)} ms; one POST /nas answered ${refused.status} (Retry-After ${refused.retryAfter ?? 'none'}) after ${refused.ms.toFixed(0)} ms; the first write after the lock went landed ${recovered.toFixed(0)} ms later`,
    );
  } finally {
    await server.stop();
    removeTempDir(dataDir);
  }
}

/** A child process holding the write lock; `released` resolves when it let go and exited. */
async function holdLock(file, ms) {
  const script = `
    const Database = require(${JSON.stringify(betterSqlite3Path)});
    const db = new Database(${JSON.stringify(file)}, { timeout: 5000 });
    db.exec('BEGIN EXCLUSIVE');
    process.stdout.write('locked\\n');
    setTimeout(() => { db.exec('COMMIT'); db.close(); process.exit(0); }, ${ms});`;
  const child = spawnChild(process.execPath, ['-e', script], { stdout: 'pipe' });
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => chunk.toString().includes('locked') && resolve());
    child.once('exit', (code) => reject(new Error(`the lock holder exited (${code}) before locking: ${child.stderrTail()}`)));
  });
  return { released: child.exited, stop: () => stopChild(child) };
}

/** Mean time of one create through the real storage with each synchronous setting. */
async function commitCost({ record, notes, log }) {
  const dir = makeTempDir('dms-bench-sync-');
  const creates = 300;
  const means = { full: [], normal: [] };
  try {
    for (let round = 0; round < 2; round++) {
      for (const synchronous of ['full', 'normal']) {
        const storage = openSqliteStorage({ file: join(dir, `${synchronous}-${round}.sqlite`), synchronous });
        await storage.migrate();
        const started = performance.now();
        for (let i = 0; i < creates; i++) await storage.nas.create({ name: `nas-${i}`, host: 'filer.example.com', type: 'smb_v3', comment: null, price: null });
        means[synchronous].push((performance.now() - started) / creates);
        await storage.close();
      }
    }
    const best = (values) => Math.min(...values);
    const full = best(means.full);
    const normal = best(means.normal);
    record('faults.sqlite_sync.full_write_ms', full, 'ms');
    record('faults.sqlite_sync.normal_write_ms', normal, 'ms');
    record('faults.sqlite_sync.full_cost_ratio', full / normal, 'ratio');
    const fs = statfsSync(dir);
    log(`one create: synchronous=FULL ${full.toFixed(3)} ms, NORMAL ${normal.toFixed(3)} ms`);
    notes.push(
      `faults.sqlite_sync: ${creates} sequential creates (one commit each) through the SQLite storage, best of 2 rounds each, on the file system of ${dir} (type 0x${fs.type.toString(16)}); ` +
        `FULL (the default) fsyncs the -wal at every commit, NORMAL only at checkpoints`,
    );
  } finally {
    removeTempDir(dir);
  }
}

/** PRAGMA quick_check, as every start runs it, on the bench's 100,000 shares. */
async function integrityCheckCost({ record, notes, log }) {
  const dataDir = makeTempDir('dms-bench-check-');
  try {
    const { file } = await seed(dataDir, { shares: 100_000, showCount: 10 });
    const db = new BetterSqlite3(file, { readonly: true });
    const runs = [];
    let bytes = 0;
    try {
      bytes = db.pragma('page_count', { simple: true }) * db.pragma('page_size', { simple: true });
      for (let i = 0; i < 3; i++) {
        const started = performance.now();
        const result = db.pragma('quick_check', { simple: true });
        runs.push(performance.now() - started);
        if (result !== 'ok') throw new Error(`quick_check of the seeded database: ${result}`);
      }
    } finally {
      db.close();
    }
    const median = [...runs].sort((a, b) => a - b)[1];
    record('faults.quick_check_100k_ms', median, 'ms');
    log(`quick_check on 100,000 shares (${(bytes / 1e6).toFixed(1)} MB): ${median.toFixed(0)} ms`);
    notes.push(
      `faults.quick_check_100k_ms: PRAGMA quick_check (run at every start) on the seeded 100,000-share database, ${(bytes / 1e6).toFixed(1)} MB, median of 3 (page cache warm)`,
    );
  } finally {
    removeTempDir(dataDir);
  }
}
