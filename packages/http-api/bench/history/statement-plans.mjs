// The statements a store really runs, and their plans. The bench process opens the storage
// itself and calls the core's service; the drivers' statement methods are wrapped for the call
// only (the statement text and its parameters are noted, nothing is changed), then each noted
// statement is explained on a connection of its own: EXPLAIN QUERY PLAN on SQLite, EXPLAIN on
// PostgreSQL. A plan that reads a whole table (`SCAN <table>` with no index, `Seq Scan on
// <table>`) is flagged: the answer's cost would grow with the table.
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';

const requireFromCore = createRequire(import.meta.resolve('@dms/core'));
const BetterSqlite3 = requireFromCore('better-sqlite3');
const pg = requireFromCore('pg');

/** A request's query string as the routes hand it to the core: each name with its values. */
export const rawQuery = (query) => {
  const raw = {};
  for (const [name, value] of new URLSearchParams(query)) (raw[name] ??= []).push(value);
  return raw;
};

/**
 * Runs `work(core, systemPrincipal)` on the core wired in this process over the SQLite `file`
 * (adapter 'sqlite') or the PostgreSQL database `url` (adapter 'postgres'); the storage closed after.
 */
export async function withCore({ adapter, file, url, dataDir }, work) {
  const { wireCore, createAesGcmSecretBox } = await import('@dms/core/runtime');
  const { createShareDriverRegistry } = await import('@dms/core/drivers');
  const { systemPrincipal } = await import('@dms/core');
  const storage =
    adapter === 'sqlite'
      ? (await import('@dms/core/sqlite')).openSqliteStorage({ file, integrity: 'skip' })
      : (await import('@dms/core/postgres')).openPostgresStorage({ url, poolMax: 1 });
  const { core } = wireCore({ storage, secrets: createAesGcmSecretBox(randomBytes(32)), drivers: createShareDriverRegistry({ localRoots: [dataDir] }) });
  try {
    return await work(core, systemPrincipal);
  } finally {
    await storage.close();
  }
}

/** The prototype of better-sqlite3's statements: where all/get/iterate/run live. */
function sqliteStatementPrototype() {
  const db = new BetterSqlite3(':memory:');
  try {
    return Object.getPrototypeOf(db.prepare('select 1'));
  } finally {
    db.close();
  }
}

/**
 * Runs `work` with the statements it sends through the driver noted, in order, as
 * `{ sql, parameters }`. One capture at a time: the wrapped methods are restored after.
 */
export async function captureStatements(adapter, work) {
  const noted = [];
  const target = adapter === 'sqlite' ? sqliteStatementPrototype() : pg.Client.prototype;
  const methods = adapter === 'sqlite' ? ['all', 'get', 'iterate', 'run'] : ['query'];
  const originals = methods.map((name) => [name, target[name]]);
  for (const [name, original] of originals) {
    target[name] = function noting(...args) {
      if (adapter === 'sqlite') noted.push({ sql: this.source, parameters: args.length === 1 && Array.isArray(args[0]) ? args[0] : args });
      else if (typeof args[0] === 'string') noted.push({ sql: args[0], parameters: Array.isArray(args[1]) ? args[1] : [] });
      else if (args[0] && typeof args[0].text === 'string') noted.push({ sql: args[0].text, parameters: args[0].values ?? [] });
      return original.apply(this, args);
    };
  }
  try {
    await work();
  } finally {
    for (const [name, original] of originals) target[name] = original;
  }
  return noted;
}

/** How a plan reads a whole table, or undefined when every table it reads is read through an index. */
export function wholeTableRead(adapter, planLines, table) {
  const pattern = adapter === 'sqlite' ? new RegExp(`\\bSCAN ${table}\\b(?!.*\\bUSING\\b)`) : new RegExp(`\\bSeq Scan on ${table}\\b`);
  return planLines.find((line) => pattern.test(line));
}

/** EXPLAIN QUERY PLAN as SQLite prints it in its shell: one line per step, indented by depth. */
function sqlitePlan(db, statement) {
  const rows = db.prepare(`explain query plan ${statement.sql}`).all(...statement.parameters);
  const depth = new Map([[0, -1]]);
  return rows.map((row) => {
    const level = (depth.get(row.parent) ?? -1) + 1;
    depth.set(row.id, level);
    return `${'  '.repeat(level)}${row.detail}`;
  });
}

/**
 * The plans of `statements` on the SQLite file `file` or the PostgreSQL database `url`,
 * each `{ sql, parameters, plan: string[], wholeTable: string | undefined }`.
 */
export async function explainStatements({ adapter, file, url, table }, statements) {
  if (adapter === 'sqlite') {
    const db = new BetterSqlite3(file, { readonly: true });
    try {
      return statements.map((statement) => {
        const plan = sqlitePlan(db, statement);
        return { ...statement, plan, wholeTable: wholeTableRead(adapter, plan, table) };
      });
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const out = [];
    for (const statement of statements) {
      const { rows } = await client.query(`explain ${statement.sql}`, statement.parameters);
      const plan = rows.map((row) => row['QUERY PLAN']);
      out.push({ ...statement, plan, wholeTable: wholeTableRead(adapter, plan, table) });
    }
    return out;
  } finally {
    await client.end();
  }
}
