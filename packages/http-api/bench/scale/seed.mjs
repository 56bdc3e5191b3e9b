// A site at its real size written straight into a migrated SQLite database (issue 48): NAS,
// local shares on a small real tree (so the scheduled tests really run), pools, a year of audit
// events, a month of finished jobs, 90 days of scans with analytics and capacity readings, open
// alerts (the rows: site-rows.mjs, shared with seed-postgres.mjs). Not through the API:
// multi-row prepared inserts in one transaction, the secondary indexes of the two big tables
// dropped before and built after (one sort instead of 10 M random B-tree inserts), journal and
// sync off for the seed only; WAL again before the server opens it.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { shareDirectories } from '../watch/seed-shares.mjs';
import { siteTables } from './site-rows.mjs';

const BetterSqlite3 = createRequire(import.meta.resolve('@dms/core'))('better-sqlite3');
const rowsPerStatement = 100;

/** Writes the rows of `batches` into `table`: one prepared multi-row insert per batch size (the full one and the last). */
function insertAll(db, { table, columns, batches }) {
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  const statements = new Map();
  const statementOf = (rows) => {
    if (!statements.has(rows))
      statements.set(rows, db.prepare(`insert into ${table} (${columns.join(', ')}) values ${Array.from({ length: rows }, () => tuple).join(', ')}`));
    return statements.get(rows);
  };
  for (const batch of batches(rowsPerStatement)) statementOf(batch.length).run(batch.flat());
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
  try {
    db.transaction(() => {
      for (const { what, tables } of siteTables(counts, { now, directories })) {
        const started = performance.now();
        for (const table of tables) {
          const restore = table.big ? dropIndexes(db, table.table) : () => {};
          insertAll(db, table);
          restore();
        }
        took[what] = (performance.now() - started) / 1000;
        log(`seeded ${what} in ${took[what].toFixed(1)} s`);
      }
    })();
    // No ANALYZE: the server never runs one, so its planner sees what a real site's would.
    db.pragma('journal_mode = WAL');
    return { file, sharesRoot, took };
  } finally {
    db.close();
  }
}
