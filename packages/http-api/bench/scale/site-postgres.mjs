// The scale section's site database on PostgreSQL: a database of its own on the server of
// `pgServerUrl` (dropped by drop(), or by the bench's cleanup on failure), seeded
// (seed-postgres.mjs), then what the bench reads of it beside the server on a pg connection of
// its own: the counts the run waits on, the list statements' plans (EXPLAIN) and their counts'
// cost, the bytes of the history (pg_total_relation_size). site-sqlite.mjs is the same on SQLite.
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { createBenchDatabase } from '../pg-bench.mjs';
import { historyParts } from './counts.mjs';
import { listPlans } from './plans.mjs';
import { seedPostgresScale } from './seed-postgres.mjs';

const pg = createRequire(import.meta.resolve('@dms/core'))('pg');

/** A throwaway database on `pgServerUrl` seeded with `counts`; resolves the site (see run.mjs for its use). */
export async function postgresSite(pgServerUrl, dataDir, counts, { now, log }) {
  const database = await createBenchDatabase(pgServerUrl);
  const url = database.url;
  log(`PostgreSQL database ${database.name}`);
  const seeded = await seedPostgresScale(url, dataDir, counts, { now, log });
  let client;
  const count = async (sql, parameters) => Number((await client.query(sql, parameters)).rows[0].n);
  return {
    name: 'PostgreSQL',
    prefix: 'pg.',
    sharesRoot: seeded.sharesRoot,
    took: seeded.took,
    serverEnv: { DMS_DATABASE_URL: url, DMS_SECRET_KEY: randomBytes(32).toString('hex') },
    plans: (groups) => listPlans({ adapter: 'postgres', url, dataDir }, groups),

    /** The count statement of each list alone: the rows it counts and the server's execution time for it (EXPLAIN ANALYZE, median of 3). */
    async countCosts(plans) {
      const reader = new pg.Client({ connectionString: url });
      await reader.connect();
      try {
        const out = [];
        for (const plan of plans.filter((p) => /^\s*select count\(\*\)/i.test(p.sql))) {
          const times = [];
          for (let i = 0; i < 3; i++) {
            const { rows } = await reader.query(`explain (analyze, timing off, format json) ${plan.sql}`, plan.parameters);
            times.push(rows[0]['QUERY PLAN'][0]['Execution Time']);
          }
          const rows = Number((await reader.query(plan.sql, plan.parameters)).rows[0].count);
          out.push({ path: plan.path.replace('/api/v2', ''), rows, ms: times.sort((a, b) => a - b)[1] });
        }
        return out;
      } finally {
        await reader.end();
      }
    },
    countCostName: 'scale.list_count_ms_max',
    countCostWhat: "PostgreSQL's execution time for it alone (EXPLAIN ANALYZE with timing off, median of 3: the backend's time, not the bench process's)",

    async open() {
      client = new pg.Client({ connectionString: url });
      await client.connect();
    },
    async finishedJobs(scheduleId) {
      const { rows } = await client.query(
        "select count(*) as n, max(finished_at) as last from jobs where schedule_id = $1 and status in ('completed', 'failed')",
        [scheduleId],
      );
      return { n: Number(rows[0].n), last: rows[0].last };
    },
    failedJobs: (scheduleId) => count("select count(*) as n from jobs where schedule_id = $1 and status = 'failed'", [scheduleId]),
    auditEventsBefore: (cutoff) => count('select count(*) as n from audit_events where at < $1', [cutoff]),

    /** Bytes of each history table with its indexes and TOAST (pg_total_relation_size). */
    async historyBytes() {
      const parts = [];
      for (const part of historyParts(counts)) {
        const { rows } = await client.query('select pg_total_relation_size($1::regclass) as bytes', [part.table]);
        parts.push({ ...part, bytes: Number(rows[0].bytes) });
      }
      const { rows } = await client.query('select pg_database_size(current_database()) as bytes');
      return {
        parts,
        note: `the history tables with their indexes and TOAST (pg_total_relation_size); the database ${(Number(rows[0].bytes) / 1e6).toFixed(0)} MB`,
      };
    },
    async close() {
      await client?.end();
    },
    drop: () => database.drop(),
  };
}
