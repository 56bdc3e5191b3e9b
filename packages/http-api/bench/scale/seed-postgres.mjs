// The scale section's site (site-rows.mjs, the rows seed.mjs writes into SQLite) written straight
// into a migrated PostgreSQL database: `insert … select * from unnest(…)` of 5,000 rows a
// statement (pg-unnest.mjs), the secondary indexes of the two big tables dropped before and built
// after, synchronous_commit off for the seed's session only. The ids are written explicitly, so
// each identity sequence is moved past its table's largest id. Then ANALYZE: unlike SQLite's
// server (which never runs one, so seed.mjs does not either), a PostgreSQL site has autovacuum
// analyze its tables soon after such writes; the seed runs it at once rather than wait for it.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { unnestInserter } from '../pg-unnest.mjs';
import { shareDirectories } from '../watch/seed-shares.mjs';
import { siteTables } from './site-rows.mjs';

const pg = createRequire(import.meta.resolve('@dms/core'))('pg');
const rowsPerStatement = 5_000;

/** The secondary indexes of `table` (not those behind its primary key or unique constraints), dropped: rebuilt by `restore()`. */
async function dropIndexes(client, table) {
  const { rows } = await client.query(
    `select i.relname as name, pg_get_indexdef(i.oid) as sql from pg_index x join pg_class i on i.oid = x.indexrelid
     where x.indrelid = $1::regclass and not exists (select 1 from pg_constraint c where c.conindid = x.indexrelid)`,
    [table],
  );
  for (const index of rows) await client.query(`drop index "${index.name}"`);
  return async () => {
    for (const index of rows) await client.query(index.sql);
  };
}

/**
 * Migrates the database at `databaseUrl` with the real storage, then seeds `counts` (see
 * counts.mjs) as of `now`, the shares' folders under `dataDir`/shares. Resolves the shares' root
 * and what took how long.
 */
export async function seedPostgresScale(databaseUrl, dataDir, counts, { now = Date.now(), log = () => {} } = {}) {
  const { openPostgresStorage } = await import('@dms/core/postgres');
  const storage = openPostgresStorage({ url: databaseUrl, poolMax: 1 });
  await storage.migrate();
  // The bench signs in once (POST /auth/login) and sends the token: no password hash per request.
  await storage.settings.set('server', { jwt_enabled: true });
  await storage.close();
  const sharesRoot = join(dataDir, 'shares');
  const directories = shareDirectories(sharesRoot, 8);

  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const took = {};
  try {
    await client.query('set synchronous_commit = off');
    // The index builds after the big tables' rows: in memory rather than in sorted runs on disk.
    await client.query("set maintenance_work_mem = '512MB'");
    const written = [];
    for (const { what, tables } of siteTables(counts, { now, directories })) {
      const started = performance.now();
      for (const table of tables) {
        const restore = table.big ? await dropIndexes(client, table.table) : async () => {};
        const insert = await unnestInserter(client, table.table, table.columns);
        for (const batch of table.batches(rowsPerStatement)) await insert(batch);
        await restore();
        written.push(table);
      }
      took[what] = (performance.now() - started) / 1000;
      log(`seeded ${what} in ${took[what].toFixed(1)} s`);
    }
    for (const { table, columns } of written) {
      if (!columns.includes('id')) continue;
      const { rows } = await client.query('select pg_get_serial_sequence($1, $2) as sequence', [table, 'id']);
      if (rows[0].sequence) await client.query(`select setval($1, (select max(id) from ${table}))`, [rows[0].sequence]);
    }
    const started = performance.now();
    await client.query('analyze');
    took.analyze = (performance.now() - started) / 1000;
    log(`analyzed in ${took.analyze.toFixed(1)} s`);
    return { sharesRoot, took };
  } finally {
    await client.end();
  }
}
