// What an audited write costs at the storage level, counted rather than timed (issue 48; the open
// cost audit.write_overhead_ratio of bench/history/audit-overhead.mjs): the statements a NAS
// comment update sends to SQLite alone and with its audit event in one transaction, how many of
// them are compiled (better-sqlite3 `prepare`) for the call, and the thread's CPU per write over
// many writes (process.threadCpuUsage: the time the machine's other load takes is not counted).
// `node bench/scale/audit-statements.mjs` after a build; prints its findings, writes no rows.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { makeTempDir, removeTempDir } from '../lib.mjs';
import { commentEvent } from '../history/comment-event.mjs';

const BetterSqlite3 = createRequire(import.meta.resolve('@dms/core'))('better-sqlite3');
const writes = Number(process.env.AUDIT_STATEMENT_WRITES ?? 3000);

/** Counts `prepare` calls and statement runs while `work` runs. */
async function counted(work) {
  const database = BetterSqlite3.prototype;
  const statement = Object.getPrototypeOf(new BetterSqlite3(':memory:').prepare('select 1'));
  const counts = { prepares: 0, runs: 0, sql: [] };
  const prepare = database.prepare;
  const methods = ['all', 'get', 'run', 'iterate'].map((name) => [name, statement[name]]);
  database.prepare = function (sql) {
    counts.prepares += 1;
    counts.sql.push(sql.replace(/\s+/g, ' ').slice(0, 90));
    return prepare.call(this, sql);
  };
  for (const [name, original] of methods)
    statement[name] = function (...args) {
      counts.runs += 1;
      return original.apply(this, args);
    };
  try {
    await work();
  } finally {
    database.prepare = prepare;
    for (const [name, original] of methods) statement[name] = original;
  }
  return counts;
}

const threadCpuUs = () => {
  const { user, system } = process.threadCpuUsage();
  return user + system;
};

const dir = makeTempDir('dms-bench-audit-statements-');
try {
  const { openSqliteStorage } = await import('@dms/core/sqlite');
  const storage = openSqliteStorage({ file: join(dir, 'dms.sqlite') });
  await storage.migrate();
  const nas = await storage.nas.create({ name: 'filer', host: 'filer.example.com', type: 'nfs_v4', comment: 'c0', price: null });
  let comment = 0;
  const variants = {
    plain: () => storage.nas.update(nas.id, { comment: `c${++comment}` }),
    transaction: () => storage.transaction((stores) => stores.nas.update(nas.id, { comment: `c${++comment}` })),
    audited: () =>
      storage.transaction(async (stores) => {
        const updated = await stores.nas.update(nas.id, { comment: `c${++comment}` });
        await stores.auditEvents.append(commentEvent(updated, `c${comment - 1}`, updated.comment));
      }),
  };
  const cpu = {};
  const pages = {};
  // A connection of its own reads how many pages (WAL frames) the writes appended: what each commit makes the disk take.
  const checker = new BetterSqlite3(join(dir, 'dms.sqlite'));
  const framesPerWrite = async (write, n = 50) => {
    checker.pragma('wal_checkpoint(TRUNCATE)');
    for (let i = 0; i < n; i++) await write();
    return checker.pragma('wal_checkpoint(PASSIVE)')[0].log / n;
  };
  for (const [name, write] of Object.entries(variants)) {
    for (let i = 0; i < 200; i++) await write();
    pages[name] = await framesPerWrite(write);
    const counts = await counted(write);
    const before = threadCpuUs();
    for (let i = 0; i < writes; i++) await write();
    cpu[name] = (threadCpuUs() - before) / writes;
    console.log(
      `${name}: ${counts.runs} statements run, ${counts.prepares} compiled for the call; ${pages[name].toFixed(1)} pages appended to the WAL; CPU ${cpu[name].toFixed(1)} µs a write\n  ${counts.sql.join('\n  ')}`,
    );
  }
  // The compile alone: what a statement cache would save per statement.
  const db = new BetterSqlite3(join(dir, 'dms.sqlite'));
  const insert =
    'insert into "audit_events" ("at", "actor_kind", "actor_id", "actor_name", "via", "client_address", "request_id", "action", "resource_type", "resource_id", "resource_name", "changes", "outcome") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning *';
  const before = threadCpuUs();
  for (let i = 0; i < writes; i++) db.prepare(insert);
  console.log(`compiling the audit insert alone: ${((threadCpuUs() - before) / writes).toFixed(1)} µs of CPU`);
  db.close();
  checker.close();
  console.log(
    `CPU ratio audited / plain ${(cpu.audited / cpu.plain).toFixed(2)}, transaction / plain ${(cpu.transaction / cpu.plain).toFixed(2)} (writes: ${writes} each; durable commits wait on the disk, not the CPU)`,
  );
  await storage.close();
} finally {
  removeTempDir(dir);
}
