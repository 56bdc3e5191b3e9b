import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, type MigrationProvider } from 'kysely';
import type { Storage } from '../../ports/storage.js';
import { DomainError } from '../../errors/domain-error.js';
import { createKyselyStorage } from '../kysely/kysely-storage.js';
import type { Database } from '../kysely/kysely-schema.js';
import { sqliteQuirks } from './sqlite-dialect-quirks.js';
import { sqliteMigrations } from './sqlite-migrations.js';
import { withStatementCache } from './sqlite-statement-cache.js';
import { createCountCache } from '../kysely/kysely-count-cache.js';
import type { FirstRowReader } from '../kysely/kysely-prepared.js';

export interface SqliteStorageOptions {
  /** A file path, or ':memory:' for tests that need no file. */
  file: string;
  now?: () => string;
}

const provider: MigrationProvider = { getMigrations: async () => sqliteMigrations };

export async function migrateSqlite(db: Kysely<Database>): Promise<void> {
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName ?? 'unknown';
    throw new DomainError('internal', `migration ${failed} failed`, { cause: error });
  }
}

/**
 * A prepared statement's synchronous get(): a point read here costs a few microseconds.
 * Prepared at its first use, since the tables exist only once the migrations have run.
 */
function sqliteFirstRowReader(database: BetterSqlite3.Database): FirstRowReader {
  return (sql) => {
    let statement: BetterSqlite3.Statement | undefined;
    return (parameters) => {
      if (!statement) {
        statement = database.prepare(sql);
        if (!statement.readonly) throw new Error(`a first-row read must not write: ${sql}`);
      }
      return statement.get(parameters);
    };
  };
}

/** Embedded SQLite storage: WAL mode, foreign keys on, case-sensitive LIKE as on PostgreSQL. */
export function openSqliteStorage(options: SqliteStorageOptions): Storage {
  if (options.file !== ':memory:') mkdirSync(dirname(options.file), { recursive: true });
  const database = new BetterSqlite3(options.file);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  database.pragma('case_sensitive_like = ON');
  const cached = withStatementCache(database);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: cached }) });
  const storage = createKyselyStorage({
    db,
    quirks: sqliteQuirks,
    migrate: migrateSqlite,
    countCache: createCountCache(cached.dataVersion),
    firstRowReader: sqliteFirstRowReader(database),
    ...(options.now ? { now: options.now } : {}),
  });
  return storage;
}
