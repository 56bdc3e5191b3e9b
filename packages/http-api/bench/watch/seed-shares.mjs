// Many `local` shares, fast: one NAS and `count` shares written straight into a migrated
// database in one transaction (better-sqlite3 on SQLite; `insert … select from unnest(…)` on
// PostgreSQL), as thousands of `core.shares.create` calls would leave them. The shares point at
// a few small real directories, so each test opens and lists a directory that is there.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

// better-sqlite3 and pg are dependencies of @dms/core: resolve them from there.
const requireFromCore = createRequire(import.meta.resolve('@dms/core'));

/** `dirs` directories of three small files under `root`: what the shares point at. */
export function shareDirectories(root, dirs) {
  return Array.from({ length: dirs }, (_, d) => {
    const dir = join(root, `dir-${d}`);
    mkdirSync(dir, { recursive: true });
    for (const name of ['a.txt', 'b.txt', 'c.txt']) writeFileSync(join(dir, name), `${name} of ${dir}\n`);
    return dir;
  });
}

const shareRows = (count, directories) =>
  Array.from({ length: count }, (_, i) => ({ name: `share-${String(i).padStart(5, '0')}`, path: directories[i % directories.length] }));

/** Migrates `dataDir`/dms.sqlite with the real storage, then writes the NAS and the shares. */
export async function seedSqliteShares(dataDir, { count, directories }) {
  const { openSqliteStorage } = await import('@dms/core/sqlite');
  const file = join(dataDir, 'dms.sqlite');
  const storage = openSqliteStorage({ file });
  await storage.migrate();
  await storage.close();

  const BetterSqlite3 = requireFromCore('better-sqlite3');
  const db = new BetterSqlite3(file);
  db.pragma('journal_mode = WAL');
  try {
    const at = new Date().toISOString();
    const insertShare = db.prepare(
      'insert into nas_shares (nas_id, name, path, options, username, password_enc, file_count, file_size_sum, created_at, updated_at) values (?, ?, ?, null, null, null, 0, 0, ?, ?)',
    );
    db.transaction(() => {
      const { lastInsertRowid } = db
        .prepare('insert into nas (name, host, type, comment, price, created_at, updated_at) values (?, ?, ?, ?, null, ?, ?)')
        .run('local-filer', 'localhost', 'local', 'seeded by the watch bench', at, at);
      for (const share of shareRows(count, directories)) insertShare.run(Number(lastInsertRowid), share.name, share.path, at, at);
    })();
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

/** The same on a PostgreSQL database (its URL): migrations, rows in one statement, VACUUM ANALYZE. */
export async function seedPostgresShares(url, { count, directories }) {
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
    const { rows } = await client.query(
      `insert into nas (name, host, type, comment, price, created_at, updated_at) values ('local-filer', 'localhost', 'local', 'seeded by the watch bench', null, $1, $1) returning id`,
      [at],
    );
    const shares = shareRows(count, directories);
    await client.query(
      `insert into nas_shares (nas_id, name, path, file_count, file_size_sum, created_at, updated_at)
       select $1, name, path, 0, 0, $4, $4 from unnest($2::text[], $3::text[]) as s(name, path)`,
      [rows[0].id, shares.map((s) => s.name), shares.map((s) => s.path), at],
    );
    await client.query('commit');
    for (const table of ['nas', 'nas_shares']) await client.query(`vacuum analyze ${table}`);
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}
