import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Storage } from '../ports/storage.js';
import type { Database } from '../adapters/kysely/kysely-schema.js';
import { openSqliteStorage } from '../adapters/sqlite/sqlite-storage.js';
import { migratedPostgres } from './migrated-postgres.js';

/** A migrated database with the service's storage and a Kysely of its own on it, for `listRows` and rows written in bulk. */
export interface MigratedKysely {
  storage: Storage;
  db: Kysely<Database>;
  close(): Promise<void>;
}

/** The SQLite file `file`, migrated. */
export async function migratedSqliteKysely(file: string): Promise<MigratedKysely> {
  const storage = openSqliteStorage({ file });
  await storage.migrate();
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: new BetterSqlite3(file) }) });
  return {
    storage,
    db,
    async close() {
      await db.destroy();
      await storage.close();
    },
  };
}

/** A PostgreSQL test database of its own, migrated (dropped on close). */
export async function migratedPostgresKysely(): Promise<MigratedKysely> {
  const { url, storage, close: closeDatabase } = await migratedPostgres();
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 2 }) }) });
  return {
    storage,
    db,
    async close() {
      await db.destroy();
      await closeDatabase();
    },
  };
}
