// The scale section's site database on SQLite: seeded (seed.mjs), then what the bench reads of it
// beside the server, on a read-only connection of its own: finished jobs and expired audit events
// (counted while the server works), the list statements' plans and their counts' cost, and the
// bytes the history takes (dbstat). site-postgres.mjs is the same on PostgreSQL.
import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { listPlans } from './plans.mjs';
import { historyParts } from './counts.mjs';
import { seedSqliteScale } from './seed.mjs';

const BetterSqlite3 = createRequire(import.meta.resolve('@dms/core'))('better-sqlite3');

const threadCpuMs = () => {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
};

/** Seeds `counts` into `dataDir`/dms.sqlite; resolves the site (see run.mjs for its use). */
export async function sqliteSite(dataDir, counts, { now, log }) {
  const seeded = await seedSqliteScale(dataDir, counts, { now, log });
  const { file } = seeded;
  let db;
  return {
    name: 'SQLite',
    prefix: '',
    sharesRoot: seeded.sharesRoot,
    took: seeded.took,
    serverEnv: {},
    plans: (groups) => listPlans({ adapter: 'sqlite', file, dataDir }, groups),

    /** The count statement of each list alone: the rows it counts and the thread's CPU for it (median of 3, in the bench process). */
    async countCosts(plans) {
      const reader = new BetterSqlite3(file, { readonly: true });
      try {
        return plans
          .filter((plan) => /^\s*select count\(\*\)/i.test(plan.sql))
          .map((plan) => {
            const statement = reader.prepare(plan.sql);
            const times = [];
            let rows = 0;
            for (let i = 0; i < 3; i++) {
              const before = threadCpuMs();
              rows = statement.get(...plan.parameters).count;
              times.push(threadCpuMs() - before);
            }
            return { path: plan.path.replace('/api/v2', ''), rows, ms: times.sort((a, b) => a - b)[1] };
          });
      } finally {
        reader.close();
      }
    },
    countCostName: 'scale.list_count_cpu_ms_max',
    countCostWhat: "the thread's CPU for it alone (median of 3, in the bench process, so the machine's other load is not counted)",

    async open() {
      db = new BetterSqlite3(file, { readonly: true });
    },
    async finishedJobs(scheduleId) {
      return db.prepare("select count(*) as n, max(finished_at) as last from jobs where schedule_id = ? and status in ('completed', 'failed')").get(scheduleId);
    },
    async failedJobs(scheduleId) {
      return db.prepare("select count(*) as n from jobs where schedule_id = ? and status = 'failed'").get(scheduleId).n;
    },
    async auditEventsBefore(cutoff) {
      return db.prepare('select count(*) as n from audit_events where at < ?').get(cutoff).n;
    },

    /** Bytes of each history table with its indexes (dbstat), or undefined where dbstat is missing. */
    async historyBytes() {
      let stat;
      try {
        stat = db.prepare(
          "select sum(pgsize) as bytes from dbstat where name = ? or name in (select name from sqlite_master where type = 'index' and tbl_name = ?)",
        );
        stat.get('nas', 'nas');
      } catch {
        const size = statSync(file).size + (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);
        return { whole: size, note: 'dbstat unavailable, the whole file over the shares (a year of audit)' };
      }
      const parts = historyParts(counts).map((part) => ({ ...part, bytes: stat.get(part.table, part.table).bytes ?? 0 }));
      return { parts, note: `the history tables with their indexes (dbstat); the file ${(statSync(file).size / 1e6).toFixed(0)} MB` };
    },
    async close() {
      db?.close();
    },
    // The file goes with the bench's temporary folder.
    drop: async () => {},
  };
}
