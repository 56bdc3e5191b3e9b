import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, type MigrationProvider } from 'kysely';
import type { Storage } from '../../ports/storage.js';
import type { SecretBox } from '../../ports/secret-box.js';
import { DomainError } from '../../errors/domain-error.js';
import { createKyselyStorage } from '../kysely/kysely-storage.js';
import type { Database } from '../kysely/kysely-schema.js';
import { sqliteQuirks } from './sqlite-dialect-quirks.js';
import { sqliteMigrations } from './sqlite-migrations.js';
import { withStatementCache } from './sqlite-statement-cache.js';
import { createListCache } from '../kysely/kysely-list-cache.js';
import type { FirstRowReader } from '../kysely/kysely-prepared.js';
import { createPrivateDatabaseFile, restrictDatabaseFiles } from './sqlite-file-modes.js';

export interface SqliteStorageOptions {
  /** A file path, or ':memory:' for tests that need no file. */
  file: string;
  now?: () => string;
  /** Seals SNMP communities at rest; the runtime always passes its SecretBox. */
  secrets?: SecretBox;
  /** A database file that stays readable by others (dms may not chmod it); a process warning when not given. */
  warn?: (message: string) => void;
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
  const onDisk = options.file !== ':memory:' && options.file !== '';
  const warn = options.warn ?? ((message: string) => process.emitWarning(message));
  // Owner only: the files hold every row, and the -wal recent writes in full.
  const restrictFiles = () => {
    if (onDisk) restrictDatabaseFiles(options.file, warn);
  };
  if (onDisk) createPrivateDatabaseFile(options.file);
  const database = new BetterSqlite3(options.file);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  database.pragma('case_sensitive_like = ON');
  // A rewritten or deleted row leaves zeros, not its old bytes, in the page's free space:
  // a legacy clear community sealed in place (or any secret replaced) keeps no copy there.
  database.pragma('secure_delete = ON');
  restrictFiles();
  const cached = withStatementCache(database);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: cached }) });
  const storage = createKyselyStorage({
    db,
    quirks: sqliteQuirks,
    // One service per data dir (openDms locks it): no other process runs its jobs.
    capabilities: { exclusiveOwner: true },
    // The migrations are the first write: a -wal or -shm created by it is restricted too.
    migrate: async (kysely) => {
      await migrateSqlite(kysely);
      restrictFiles();
    },
    listCache: createListCache(cached.dataVersion),
    firstRowReader: sqliteFirstRowReader(database),
    ...(options.now ? { now: options.now } : {}),
    ...(options.secrets ? { secrets: options.secrets } : {}),
    // The old pages with the clear text are still in the main file, and a crashed earlier
    // run may have left frames with it in the -wal: copy the sealed pages over them and
    // empty the -wal, once, on the start that sealed something.
    afterLegacySecretsSealed: async () => {
      database.pragma('wal_checkpoint(TRUNCATE)');
    },
  });
  return storage;
}
