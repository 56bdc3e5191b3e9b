// A job history to measure on: NAS, shares and jobs written straight into a migrated database
// in one transaction (better-sqlite3 on SQLite; on PostgreSQL `insert … select from unnest(…)`, pg-unnest.mjs,
// 10,000 rows a statement, then VACUUM ANALYZE as autovacuum would run soon after). The rows
// are what the engine leaves behind: finished jobs with their steps, message and scan result.
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { unnestInserter } from '../pg-unnest.mjs';

// better-sqlite3 and pg are dependencies of @dms/core: resolve them from there.
const requireFromCore = createRequire(import.meta.resolve('@dms/core'));
const BetterSqlite3 = requireFromCore('better-sqlite3');

const dayMs = 24 * 3600_000;

/** Who starts jobs: four users and keys, and the schedules. `requested_by` is the engine's queue key. */
export const requesters = [
  { requester: 'admin', requested_by: 'user:1' },
  { requester: 'alice', requested_by: 'user:2' },
  { requester: 'bob', requested_by: 'user:3' },
  { requester: 'ci-deploy', requested_by: 'key:1' },
  { requester: 'scheduler', requested_by: 'system' },
];

/** The columns of a job row, as jobRows writes them. */
export const jobColumns = [
  'id',
  'kind',
  'status',
  'nas_id',
  'share_id',
  'progress',
  'total',
  'message',
  'steps',
  'payload_enc',
  'result',
  'worker_id',
  'heartbeat_at',
  'requested_by',
  'requester',
  'created_at',
  'started_at',
  'finished_at',
];

const iso = (ms) => new Date(ms).toISOString();

/** Deterministic pseudo-random numbers (LCG) so every run stores the same history. */
function generator(seed) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
}

const testSteps = (failedAt, random) =>
  JSON.stringify(
    ['resolve', 'connect', 'mount', 'list'].map((name, index) => ({
      name,
      outcome: failedAt === undefined || index < failedAt ? 'ok' : index === failedAt ? 'failed' : 'skipped',
      duration_ms: Math.round(random() * 40),
      ...(index === failedAt ? { message: 'mount.nfs: access denied by server while mounting' } : {}),
    })),
  );

/**
 * `count` jobs, oldest first, `created_at` spread evenly over `spanDays` up to `newestAt`. Jobs
 * alternate over `shares` ({id, nas_id}) and the five requesters; a third are scans; a fifth
 * failed; the `unfinished` newest are queued or working, as a busy service has a few.
 */
export function jobRows({ count, shares, newestAt, spanDays, unfinished = 0, seed = 0x5eed }) {
  const random = generator(seed);
  const step = (spanDays * dayMs) / count;
  const rows = [];
  for (let i = 0; i < count; i++) {
    const share = shares[Math.floor(random() * shares.length)];
    const who = requesters[i % requesters.length];
    const kind = i % 3 === 0 ? 'share_scan' : 'share_test';
    const createdMs = newestAt - spanDays * dayMs + i * step + random() * step;
    const fromEnd = count - i;
    const status = fromEnd <= unfinished ? (fromEnd % 3 === 0 ? 'working' : 'queued') : random() < 0.2 ? 'failed' : 'completed';
    const startedMs = status === 'queued' ? null : createdMs + 5 + random() * 50;
    const finishedMs =
      status === 'completed' || status === 'failed' ? startedMs + (kind === 'share_scan' ? 1000 + random() * 60_000 : 20 + random() * 400) : null;
    const files = Math.floor(random() * 200_000);
    const row = {
      id: randomUUID(),
      kind,
      status,
      nas_id: share.nas_id,
      share_id: share.id,
      progress: status === 'completed' ? (kind === 'share_scan' ? files : 4) : 0,
      total: kind === 'share_scan' ? (status === 'completed' ? files : 0) : 4,
      message:
        status === 'failed'
          ? kind === 'share_scan'
            ? 'scan failed: EACCES: permission denied, scandir'
            : 'share test failed at mount: access denied by server'
          : status === 'completed' && kind === 'share_scan'
            ? `${files} files`
            : null,
      steps: kind === 'share_test' && finishedMs !== null ? testSteps(status === 'failed' ? 2 : undefined, random) : '[]',
      payload_enc: null,
      result: kind === 'share_scan' && status === 'completed' ? JSON.stringify({ file_count: files, file_size_sum: files * 40_960 }) : null,
      worker_id: startedMs === null ? null : 'worker-seeded',
      heartbeat_at: startedMs === null ? null : iso(finishedMs ?? startedMs),
      requested_by: who.requested_by,
      requester: who.requester,
      created_at: iso(createdMs),
      started_at: startedMs === null ? null : iso(startedMs),
      finished_at: finishedMs === null ? null : iso(finishedMs),
    };
    rows.push(row);
  }
  return rows;
}

/** `nasCount` NAS with `shares` shares spread over them: what the jobs run on. */
function shareRows(nasCount, shares) {
  return Array.from({ length: shares }, (_, i) => ({ nas: i % nasCount, name: `share-${String(i).padStart(4, '0')}`, path: `/export/vol${i % 8}/s${i}` }));
}

/**
 * Migrates `dataDir`/dms.sqlite with the real storage, then writes the NAS, shares and the
 * jobs of `jobs(shares)` in one transaction. Settings are written through the storage.
 * @returns {Promise<{ file: string, shares: {id: number, nas_id: number}[], nasIds: number[] }>}
 */
export async function seedSqliteHistory(dataDir, { nasCount = 4, shares = 200, jobs, settings }) {
  const { openSqliteStorage } = await import('@dms/core/sqlite');
  const file = join(dataDir, 'dms.sqlite');
  const storage = openSqliteStorage({ file });
  await storage.migrate();
  if (settings) await storage.settings.set('server', settings);
  await storage.close();

  const db = new BetterSqlite3(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  try {
    const at = new Date().toISOString();
    const insertNas = db.prepare('insert into nas (name, host, type, comment, price, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?)');
    const insertShare = db.prepare(
      'insert into nas_shares (nas_id, name, path, options, username, password_enc, file_count, file_size_sum, created_at, updated_at) values (?, ?, ?, ?, ?, null, 0, 0, ?, ?)',
    );
    const insertJob = db.prepare(`insert into jobs (${jobColumns.join(', ')}) values (${jobColumns.map((c) => '@' + c).join(', ')})`);
    let seeded;
    let jobCount = 0;
    db.transaction(() => {
      const nasIds = Array.from({ length: nasCount }, (_, n) =>
        Number(insertNas.run(`filer-${n}`, `filer-${n}.example.com`, 'nfs_v4', 'seeded by the history bench', null, at, at).lastInsertRowid),
      );
      const stored = shareRows(nasCount, shares).map((share) => ({
        id: Number(insertShare.run(nasIds[share.nas], share.name, share.path, null, null, at, at).lastInsertRowid),
        nas_id: nasIds[share.nas],
      }));
      for (const row of jobs(stored)) {
        insertJob.run(row);
        jobCount += 1;
      }
      seeded = { shares: stored, nasIds };
    })();
    db.pragma('wal_checkpoint(TRUNCATE)');
    return { file, jobCount, ...seeded };
  } finally {
    db.close();
  }
}

/** The same on a PostgreSQL database (its URL): migrations, rows, VACUUM ANALYZE. */
export async function seedPostgresHistory(url, { nasCount = 4, shares = 200, jobs, settings }) {
  const { openPostgresStorage } = await import('@dms/core/postgres');
  const storage = openPostgresStorage({ url, poolMax: 1 });
  await storage.migrate();
  if (settings) await storage.settings.set('server', settings);
  await storage.close();

  const pg = requireFromCore('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const at = new Date().toISOString();
    await client.query('begin');
    const nasIds = [];
    for (let n = 0; n < nasCount; n++) {
      const { rows } = await client.query(
        'insert into nas (name, host, type, comment, price, created_at, updated_at) values ($1, $2, $3, $4, null, $5, $5) returning id',
        [`filer-${n}`, `filer-${n}.example.com`, 'nfs_v4', 'seeded by the history bench', at],
      );
      nasIds.push(rows[0].id);
    }
    const stored = [];
    for (const share of shareRows(nasCount, shares)) {
      const { rows } = await client.query(
        'insert into nas_shares (nas_id, name, path, options, username, password_enc, file_count, file_size_sum, created_at, updated_at) values ($1, $2, $3, null, null, null, 0, 0, $4, $4) returning id',
        [nasIds[share.nas], share.name, share.path, at],
      );
      stored.push({ id: rows[0].id, nas_id: nasIds[share.nas] });
    }
    const all = jobs(stored);
    const insertJobs = await unnestInserter(client, 'jobs', jobColumns);
    const batch = 10_000;
    for (let from = 0; from < all.length; from += batch) await insertJobs(all.slice(from, from + batch).map((row) => jobColumns.map((column) => row[column])));
    await client.query('commit');
    for (const table of ['nas', 'nas_shares', 'jobs']) await client.query(`vacuum analyze ${table}`);
    return { jobCount: all.length, shares: stored, nasIds };
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}
