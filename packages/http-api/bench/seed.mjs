// Seeds a fresh data dir before the server starts: migrate with the real storage, then bulk
// insert 1 NAS and 100,000 shares with better-sqlite3 in one transaction. seedPostgres does
// the same on a PostgreSQL database (migrations, then the same rows through pg).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { openSqliteStorage } from '@dms/core/sqlite';

// better-sqlite3 and pg are dependencies of @dms/core: resolve them from there.
const requireFromCore = createRequire(import.meta.resolve('@dms/core'));
const BetterSqlite3 = requireFromCore('better-sqlite3');

export const shareName = (i) => `share-${String(i).padStart(6, '0')}`;

/** The seeded columns of share i, the same on both databases. */
function shareValues(i) {
  const name = shareName(i);
  const fileCount = (i * 7919) % 100_000;
  return {
    name,
    path: `/export/vol${i % 16}/${name}`,
    options: i % 3 === 0 ? 'ro,vers=3' : null,
    username: i % 2 ? `user${i % 50}` : null,
    fileCount,
    fileSizeSum: fileCount * 4096 + i,
  };
}

/** The show set: every 10th share, in a fixed shuffled order. */
function showSet(ids, shares, showCount) {
  const step = Math.max(1, Math.floor(shares / showCount));
  return shuffled(ids.filter((_, index) => index % step === 0).slice(0, showCount));
}

/** Key order as the API answers (storage column order, password_enc removed). */
const showBody = (row) =>
  JSON.stringify({
    id: row.id,
    nas_id: row.nas_id,
    pool_id: row.pool_id,
    name: row.name,
    path: row.path,
    options: row.options,
    username: row.username,
    file_count: row.file_count,
    file_size_sum: row.file_size_sum,
    health: row.health,
    last_tested_at: row.last_tested_at,
    last_test_status: row.last_test_status,
    last_scanned_at: row.last_scanned_at,
    capacity_bytes: row.capacity_bytes,
    free_bytes: row.free_bytes,
    capacity_checked_at: row.capacity_checked_at,
    capacity_forecast: row.capacity_forecast === null ? null : JSON.parse(row.capacity_forecast),
    capacity_warning_percent: row.capacity_warning_percent,
    capacity_critical_percent: row.capacity_critical_percent,
    used_percent: row.used_percent,
    days_until_full: null,
  });

/** Deterministic pseudo-random order (LCG), so every run shows the same ids. */
function shuffled(values) {
  let state = 0x2545f491;
  const out = [...values];
  for (let i = out.length - 1; i > 0; i--) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * @returns {{ file: string, nasId: number, showIds: number[], bodies: Map<number, string> }}
 * bodies: the exact JSON `GET /nas_shares/{id}` should answer (no password scope).
 */
export async function seed(dataDir, { shares = 100_000, showCount = 10_000 } = {}) {
  const file = join(dataDir, 'dms.sqlite');
  const storage = openSqliteStorage({ file });
  await storage.migrate();
  await storage.close();

  const db = new BetterSqlite3(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const at = new Date().toISOString();
  const nasId = Number(
    db
      .prepare('insert into nas (name, host, type, comment, price, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?)')
      .run('nas-bench', 'filer.example.com', 'smb_v3', 'seeded by bench', null, at, at).lastInsertRowid,
  );
  const insert = db.prepare(
    'insert into nas_shares (nas_id, name, path, options, username, password_enc, file_count, file_size_sum, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const ids = [];
  db.transaction(() => {
    for (let i = 0; i < shares; i++) {
      const v = shareValues(i);
      const result = insert.run(nasId, v.name, v.path, v.options, v.username, null, v.fileCount, v.fileSizeSum, at, at);
      ids.push(Number(result.lastInsertRowid));
    }
  })();

  const showIds = showSet(ids, shares, showCount);
  const select = db.prepare(
    'select id, nas_id, pool_id, name, path, options, username, file_count, file_size_sum, health, last_tested_at, last_test_status, last_scanned_at, capacity_bytes, free_bytes, capacity_checked_at, capacity_forecast, capacity_warning_percent, capacity_critical_percent, case when capacity_bytes > 0 then round(100.0 * (capacity_bytes - free_bytes) / capacity_bytes, 1) end as used_percent from nas_shares where id = ?',
  );
  const bodies = new Map();
  for (const id of showIds) {
    bodies.set(id, showBody(select.get(id)));
  }
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return { file, nasId, showIds, bodies };
}

/**
 * The same rows on a PostgreSQL database: the service's migrations (openPostgresStorage's
 * migrate, as `dms migrate` runs it), then 1 NAS and the shares in one transaction, inserted
 * from column arrays (`insert … select from unnest($1::text[], …)`, 20,000 rows a statement),
 * then VACUUM ANALYZE so that the planner has statistics and index-only scans a visibility
 * map, as autovacuum would give them a minute later.
 * @returns {Promise<{ nasId: number, showIds: number[], bodies: Map<number, string> }>}
 */
export async function seedPostgres(url, { shares = 100_000, showCount = 10_000 } = {}) {
  const { openPostgresStorage } = await import('@dms/core/postgres');
  const storage = openPostgresStorage({ url, poolMax: 1 });
  await storage.migrate();
  await storage.close();

  const pg = requireFromCore('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const at = new Date().toISOString();
    await client.query('begin');
    const nas = await client.query(
      'insert into nas (name, host, type, comment, price, created_at, updated_at) values ($1, $2, $3, $4, $5, $6, $6) returning id',
      ['nas-bench', 'filer.example.com', 'smb_v3', 'seeded by bench', null, at],
    );
    const nasId = nas.rows[0].id;
    const ids = [];
    const batch = 20_000;
    for (let from = 0; from < shares; from += batch) {
      const columns = { name: [], path: [], options: [], username: [], fileCount: [], fileSizeSum: [] };
      for (let i = from; i < Math.min(shares, from + batch); i++) {
        const v = shareValues(i);
        for (const key of Object.keys(columns)) columns[key].push(v[key]);
      }
      const inserted = await client.query(
        `insert into nas_shares (nas_id, name, path, options, username, password_enc, file_count, file_size_sum, created_at, updated_at)
         select $1, t.name, t.path, t.options, t.username, null, t.file_count, t.file_size_sum, $8, $8
         from unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::bigint[]) with ordinality as t(name, path, options, username, file_count, file_size_sum, n)
         order by t.n
         returning id, name`,
        [nasId, columns.name, columns.path, columns.options, columns.username, columns.fileCount, columns.fileSizeSum, at],
      );
      const idByName = new Map(inserted.rows.map((row) => [row.name, row.id]));
      for (const name of columns.name) ids.push(idByName.get(name));
    }
    await client.query('commit');
    await client.query('vacuum analyze nas');
    await client.query('vacuum analyze nas_shares');

    const showIds = showSet(ids, shares, showCount);
    const rows = await client.query(
      'select id, nas_id, pool_id, name, path, options, username, file_count::float8 as file_count, file_size_sum::float8 as file_size_sum, health, last_tested_at, last_test_status, last_scanned_at, capacity_bytes::float8 as capacity_bytes, free_bytes::float8 as free_bytes, capacity_checked_at, capacity_forecast, capacity_warning_percent, capacity_critical_percent, (case when capacity_bytes > 0 then round(100.0 * (capacity_bytes - free_bytes) / capacity_bytes, 1) end)::float8 as used_percent from nas_shares where id = any($1::int[])',
      [showIds],
    );
    const byId = new Map(rows.rows.map((row) => [row.id, row]));
    const bodies = new Map(showIds.map((id) => [id, showBody(byId.get(id))]));
    return { nasId, showIds, bodies };
  } finally {
    await client.end();
  }
}
