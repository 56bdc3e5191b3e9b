// A site at its real size written straight into a migrated SQLite database (issue 48): NAS,
// local shares on a small real tree (so the scheduled tests really run), pools, a year of audit
// events, a month of finished jobs, 90 days of scans with analytics and capacity readings, open
// alerts. Not through the API: multi-row prepared inserts in one transaction, the secondary
// indexes of the two big tables dropped before and built after (one sort instead of 10 M random
// B-tree inserts), journal and sync off for the seed only; WAL again before the server opens it.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { jobRows } from '../history/seed-jobs.mjs';
import { shareDirectories } from '../watch/seed-shares.mjs';
import { auditSpanDays, batches, jobSpanDays } from './counts.mjs';

const BetterSqlite3 = createRequire(import.meta.resolve('@dms/core'))('better-sqlite3');
const dayMs = 24 * 3600_000;
const rowsPerStatement = 100;
const iso = (ms) => new Date(ms).toISOString();

const auditColumns = [
  'at',
  'actor_kind',
  'actor_id',
  'actor_name',
  'via',
  'client_address',
  'request_id',
  'action',
  'resource_type',
  'resource_id',
  'resource_name',
  'changes',
  'outcome',
];
const actors = [
  { actor_kind: 'user', actor_id: 1, actor_name: 'admin', via: 'console' },
  { actor_kind: 'user', actor_id: 2, actor_name: 'alice', via: 'rest' },
  { actor_kind: 'user', actor_id: 3, actor_name: 'bob', via: 'cli' },
  { actor_kind: 'api_key', actor_id: 1, actor_name: 'ci-deploy', via: 'rest' },
  { actor_kind: 'system', actor_id: null, actor_name: 'scheduler', via: 'scheduler' },
];
const actions = ['update', 'test', 'scan', 'create', 'login', 'delete'];

/** The i-th of `count` audit events, oldest first, spread evenly over `auditSpanDays` up to `now`. */
export function auditRow(i, count, now, shares) {
  const actor = actors[i % actors.length];
  const action = actions[(i * 7) % actions.length];
  const shareId = 1 + ((i * 7919) % shares);
  const onShare = action !== 'login';
  return [
    iso(now - auditSpanDays * dayMs + ((i + 0.5) * auditSpanDays * dayMs) / count),
    actor.actor_kind,
    actor.actor_id,
    actor.actor_name,
    actor.via,
    actor.actor_kind === 'system' ? null : `10.0.${i % 200}.${i % 250}`,
    null,
    action,
    onShare ? 'nas_share' : null,
    onShare ? String(shareId) : null,
    onShare ? `share-${String(shareId - 1).padStart(5, '0')}` : null,
    action === 'update' ? '{"comment":{"from":null,"to":"moved to vol2"}}' : null,
    i % 50 === 0 ? 'failure' : 'success',
  ];
}

/** A scan's analytics, smaller than a real tree's (3 directories, 3 extensions, 2 files) but of the same shape. */
export function analyticsBlob(shareId, files, bytes) {
  const part = (n, d) => Math.floor(n / d);
  return JSON.stringify({
    top_directories: [
      { path: '/projects', bytes: part(bytes, 2), files: part(files, 2) },
      { path: '/archive', bytes: part(bytes, 3), files: part(files, 3) },
      { path: `/home/u${shareId % 97}`, bytes: part(bytes, 8), files: part(files, 8) },
    ],
    top_directories_complete: false,
    age_histogram: [
      { bucket: '< 30 d', files: part(files, 4), bytes: part(bytes, 4) },
      { bucket: '> 3 y', files: files - part(files, 4), bytes: bytes - part(bytes, 4) },
    ],
    access_histogram: null,
    size_histogram: [
      { bucket: '< 1 MiB', files: part(files, 2), bytes: part(bytes, 10) },
      { bucket: '< 1 GiB', files: files - part(files, 2), bytes: bytes - part(bytes, 10) },
    ],
    extensions: [
      { extension: 'pdf', files: part(files, 3), bytes: part(bytes, 3) },
      { extension: 'tif', files: part(files, 5), bytes: part(bytes, 2) },
      { extension: '', files: part(files, 10), bytes: part(bytes, 20) },
    ],
    extensions_other: { files: part(files, 4), bytes: part(bytes, 10) },
    largest_files: [
      { path: '/archive/raw.tif', bytes: part(bytes, 50), modified_at: '2025-03-01T10:00:00.000Z' },
      { path: '/projects/big.iso', bytes: part(bytes, 60), modified_at: '2026-01-12T08:30:00.000Z' },
    ],
  });
}

/** One prepared insert of `rows` rows of `columns`. */
function multiInsert(db, table, columns, rows) {
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  return db.prepare(`insert into ${table} (${columns.join(', ')}) values ${Array.from({ length: rows }, () => tuple).join(', ')}`);
}

/** Writes `total` rows of `row(i)` (an array of the columns' values) in statements of `rowsPerStatement`. */
function insertMany(db, table, columns, total, row) {
  const { full, rest } = batches(total, rowsPerStatement);
  const big = multiInsert(db, table, columns, rowsPerStatement);
  let i = 0;
  for (let b = 0; b < full; b++) {
    const values = [];
    for (let r = 0; r < rowsPerStatement; r++) values.push(...row(i++));
    big.run(values);
  }
  if (rest > 0) {
    const values = [];
    for (let r = 0; r < rest; r++) values.push(...row(i++));
    multiInsert(db, table, columns, rest).run(values);
  }
}

/** The secondary indexes of `table` (their SQL), dropped: rebuilt by `restore()` after the rows are in. */
function dropIndexes(db, table) {
  const indexes = db.prepare("select name, sql from sqlite_master where type = 'index' and tbl_name = ? and sql is not null").all(table);
  for (const index of indexes) db.exec(`drop index "${index.name}"`);
  return () => {
    for (const index of indexes) db.exec(index.sql);
  };
}

/**
 * Migrates `dataDir`/dms.sqlite with the real storage, then seeds `counts` (see counts.mjs) as
 * of `now`. Resolves the file, the shares' root and what took how long.
 */
export async function seedSqliteScale(dataDir, counts, { now = Date.now(), log = () => {} } = {}) {
  const { openSqliteStorage } = await import('@dms/core/sqlite');
  const file = join(dataDir, 'dms.sqlite');
  const storage = openSqliteStorage({ file });
  await storage.migrate();
  // The bench signs in once (POST /auth/login) and sends the token: no password hash per request.
  await storage.settings.set('server', { jwt_enabled: true });
  await storage.close();
  const sharesRoot = join(dataDir, 'shares');
  const directories = shareDirectories(sharesRoot, 8);

  const db = new BetterSqlite3(file);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -262144');
  const took = {};
  const timed = (what, fn) => {
    const started = performance.now();
    fn();
    took[what] = (performance.now() - started) / 1000;
    log(`seeded ${what} in ${took[what].toFixed(1)} s`);
  };
  try {
    const at = iso(now);
    db.transaction(() => {
      timed('nas, pools, shares, alerts', () => {
        insertMany(db, 'nas', ['name', 'host', 'type', 'comment', 'created_at', 'updated_at'], counts.nas, (n) => [
          `filer-${String(n).padStart(3, '0')}`,
          'localhost',
          'local',
          'seeded by the scale bench',
          at,
          at,
        ]);
        insertMany(db, 'pools', ['name', 'type', 'content', 'created_at', 'updated_at'], counts.pools, (p) => [`pool-${p}`, 'primary', 'nas', at, at]);
        insertMany(
          db,
          'nas_shares',
          [
            'nas_id',
            'pool_id',
            'name',
            'path',
            'file_count',
            'file_size_sum',
            'created_at',
            'updated_at',
            'last_scanned_at',
            'capacity_bytes',
            'free_bytes',
            'capacity_checked_at',
          ],
          counts.shares,
          (s) => [
            1 + (s % counts.nas),
            1 + (s % counts.pools),
            `share-${String(s).padStart(5, '0')}`,
            directories[s % directories.length],
            100_000 + s,
            (100_000 + s) * 40_960,
            at,
            at,
            at,
            2 ** 42,
            2 ** 41 - s * 1_000_000,
            at,
          ],
        );
        insertMany(
          db,
          'alerts',
          ['source', 'level', 'resource_type', 'resource_id', 'resource_name', 'message', 'raised_at', 'last_seen_at', 'open_key'],
          counts.openAlerts,
          (a) => [
            'scan_failed',
            3,
            'nas_share',
            String(a + 1),
            `share-${String(a).padStart(5, '0')}`,
            'scan failed: EACCES: permission denied, scandir',
            at,
            at,
            `scan_failed:nas_share:${a + 1}`,
          ],
        );
      });
      timed(`${counts.shares * counts.scanDays} scans with analytics and capacity readings`, () => {
        const scans = counts.shares * counts.scanDays;
        // Day-major: the ids grow with time, as scans arrive.
        const scanRow = (i) => {
          const day = Math.floor(i / counts.shares);
          const shareId = 1 + (i % counts.shares);
          const files = 100_000 + shareId + day * 10;
          return [
            shareId,
            iso(now - (counts.scanDays - day) * dayMs + shareId * 1000),
            files,
            files * 40_960,
            60_000,
            2 ** 42,
            2 ** 41 - shareId * 1_000_000 - day * 10_000_000,
          ];
        };
        insertMany(db, 'share_scans', ['share_id', 'at', 'file_count', 'file_size_sum', 'duration_ms', 'capacity_bytes', 'free_bytes'], scans, scanRow);
        insertMany(db, 'share_scan_analytics', ['scan_id', 'analytics'], scans, (i) => {
          const [shareId, , files, bytes] = scanRow(i);
          return [i + 1, analyticsBlob(shareId, files, bytes)];
        });
        insertMany(db, 'share_capacity_samples', ['share_id', 'at', 'capacity_bytes', 'free_bytes'], scans, (i) => {
          const [shareId, scanAt, , , , capacity, free] = scanRow(i);
          return [shareId, scanAt, capacity, free];
        });
      });
      timed(`${counts.jobs} finished jobs`, () => {
        const restore = dropIndexes(db, 'jobs');
        const shares = Array.from({ length: counts.shares }, (_, s) => ({ id: s + 1, nas_id: 1 + (s % counts.nas) }));
        const columns = [
          'id',
          'kind',
          'status',
          'nas_id',
          'share_id',
          'progress',
          'total',
          'message',
          'steps',
          'result',
          'worker_id',
          'heartbeat_at',
          'requested_by',
          'requester',
          'created_at',
          'started_at',
          'finished_at',
        ];
        // In chunks of a day's share, so the rows never all sit in memory.
        const chunk = Math.ceil(counts.jobs / jobSpanDays);
        for (let from = 0, part = 0; from < counts.jobs; from += chunk, part++) {
          const count = Math.min(chunk, counts.jobs - from);
          const newestAt = now - 3600_000 - (jobSpanDays - 1 - part) * dayMs;
          const rows = jobRows({ count, shares, newestAt, spanDays: 1, seed: 0x5eed + part });
          insertMany(db, 'jobs', columns, rows.length, (i) => columns.map((column) => rows[i][column]));
        }
        restore();
      });
      timed(`${counts.auditEvents} audit events`, () => {
        const restore = dropIndexes(db, 'audit_events');
        insertMany(db, 'audit_events', auditColumns, counts.auditEvents, (i) => auditRow(i, counts.auditEvents, now, counts.shares));
        restore();
      });
    })();
    // No ANALYZE: the server never runs one, so its planner sees what a real site's would.
    db.pragma('journal_mode = WAL');
    return { file, sharesRoot, took };
  } finally {
    db.close();
  }
}
