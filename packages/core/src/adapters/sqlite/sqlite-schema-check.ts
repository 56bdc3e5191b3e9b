import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { sqliteMigrations } from './sqlite-migrations.js';
import { migrationNameOrder } from '../migrations/migration-name-order.js';

/** One row of sqlite_master: a table, an index, a trigger or a view, with its SQL. */
interface SchemaObject {
  type: string;
  name: string;
  table: string;
  sql: string | null;
}

/**
 * SQLite's statistics tables (ANALYZE, by hand in the sqlite3 shell) steer only the query
 * planner: left out of the comparison, so a backup of a database someone analyzed restores.
 */
const ignored = (object: SchemaObject) => object.name.startsWith('sqlite_stat');

/** The schema of an open database, keyed by `type name`, its SQL with whitespace collapsed. */
export function schemaOf(database: BetterSqlite3.Database): Map<string, SchemaObject> {
  const rows = database.prepare('select type, name, tbl_name as "table", sql from sqlite_master').all() as SchemaObject[];
  return new Map(
    rows
      .filter((row) => !ignored(row))
      .map((row) => [`${row.type} ${row.name}`, { ...row, sql: row.sql === null ? null : row.sql.replace(/\s+/g, ' ').trim() }]),
  );
}

/**
 * The schema dms's own migrations `applied` build: they are run, with Kysely's Migrator as at a
 * start, on an empty in-memory database.
 */
export async function schemaOfMigrations(applied: readonly string[]): Promise<Map<string, SchemaObject>> {
  const migrations = Object.fromEntries(Object.entries(sqliteMigrations).filter(([name]) => applied.includes(name)));
  const database = new BetterSqlite3(':memory:');
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database }) });
  try {
    const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations }, nameComparator: migrationNameOrder }).migrateToLatest();
    if (error) throw error;
    return schemaOf(database);
  } finally {
    await db.destroy();
  }
}

/**
 * What in `actual` differs from `expected`, in words (`a trigger "x" dms never creates`), or
 * undefined when they are the same. A trigger or a view in a backup runs with the service's
 * rights on every write or read it touches: one that erases audit rows, or a table altered to
 * default a column to admin, must never be restored.
 */
export function schemaDifference(actual: Map<string, SchemaObject>, expected: Map<string, SchemaObject>): string | undefined {
  for (const [key, object] of actual) {
    const wanted = expected.get(key);
    if (wanted === undefined) return `${withArticle(object.type)} "${object.name}" (on ${object.table}) that dms never creates`;
    if (wanted.sql !== object.sql || wanted.table !== object.table)
      return `${withArticle(object.type)} "${object.name}" that differs from the one dms creates (${object.sql ?? 'no SQL'})`;
  }
  for (const [key, object] of expected) if (!actual.has(key)) return `no ${object.type} "${object.name}", which dms creates`;
  return undefined;
}

function withArticle(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
