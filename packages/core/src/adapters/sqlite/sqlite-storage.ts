import { statfs } from 'node:fs/promises';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, type MigrationProvider } from 'kysely';
import type { Storage } from '../../ports/storage.js';
import type { SecretBox } from '../../ports/secret-box.js';
import { DomainError } from '../../errors/domain-error.js';
import { createKyselyStorage } from '../kysely/kysely-storage.js';
import { groupCommits } from '../kysely/kysely-transaction-group.js';
import type { Database } from '../kysely/kysely-schema.js';
import { sqliteQuirks } from './sqlite-dialect-quirks.js';
import { sqliteMigrations } from './sqlite-migrations.js';
import { withStatementCache } from './sqlite-statement-cache.js';
import { createListCache } from '../kysely/kysely-list-cache.js';
import type { ArrayRowsReader, FirstRowReader } from '../kysely/kysely-prepared.js';
import { createPrivateDatabaseFile, restrictDatabaseFiles } from './sqlite-file-modes.js';
import { BusyRetryingSqliteDialect, isSqliteBusy, type BusyRetryingSqliteDriver } from './sqlite-busy-driver.js';
import { watchFileIdentity, type FileIdentityWatch } from './sqlite-file-identity.js';
import { DatabaseDamagedError, integrityProblems } from './sqlite-integrity.js';
import { sqliteListTimeBound, type SqliteListTimeBoundOptions } from './sqlite-list-time-bound.js';
import { startWalCheckpointer, type WalCheckpointer } from './sqlite-wal-checkpointer.js';
import { migrationNameOrder } from '../migrations/migration-name-order.js';

export interface SqliteStorageOptions {
  /** A file path, or ':memory:' for tests that need no file. */
  file: string;
  now?: () => string;
  /** Seals SNMP communities at rest; the runtime always passes its SecretBox. */
  secrets?: SecretBox;
  /** A database file that stays readable by others (dms may not chmod it); a process warning when not given. */
  warn?: (message: string) => void;
  /** The database file deleted or replaced under the running service; a process warning when not given. */
  error?: (message: string) => void;
  /**
   * `full` (the default): a commit is on disk when it is acknowledged, through an OS crash or
   * a power cut. `normal`: the last commits before such a crash may be lost (never on a
   * process crash), for fewer fsyncs.
   */
  synchronous?: 'full' | 'normal';
  /** How long a write waits for a lock held by another process before its 503 (2000 ms). */
  busyBudgetMs?: number;
  /**
   * PRAGMA quick_check when the storage opens: `refuse` (the default) throws
   * DatabaseDamagedError for a damaged file, `warn` serves it with a warning (the operator
   * asked to: DMS_ALLOW_DAMAGED_DATABASE), `skip` does not look.
   */
  integrity?: 'refuse' | 'warn' | 'skip';
  /** How long a statement of a list whose filters scan may hold the loop (sqlite-list-time-bound.ts). */
  listTimeBound?: SqliteListTimeBoundOptions;
  /**
   * Checkpoints the -wal in a worker thread of its own (sqlite-wal-checkpointer.ts), not inside
   * the commit that passes SQLite's 1,000 pages on the event loop; the service's choice (its
   * loop serves every user), not the CLI's nor most tests'.
   */
  checkpointOffLoop?: boolean | { everyMs: number };
}

/** The checkpointer of a storage opened with `checkpointOffLoop`, once started (undefined: none, or it did not start). */
const checkpointers = new WeakMap<Storage, Promise<WalCheckpointer | undefined>>();
export function walCheckpointerOf(storage: Storage): Promise<WalCheckpointer | undefined> {
  return checkpointers.get(storage) ?? Promise.resolve(undefined);
}

/** Below this much free space in the data dir /readyz fails: the next writes would. */
const minFreeBytes = 1024 * 1024;
/** /readyz probes at most this often; calls in between share the last answer. */
const probeEveryMs = 1000;

const provider: MigrationProvider = { getMigrations: async () => sqliteMigrations };

export async function migrateSqlite(db: Kysely<Database>): Promise<void> {
  const { error, results } = await new Migrator({ db, provider, nameComparator: migrationNameOrder }).migrateToLatest();
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

/** A prepared statement in raw mode: every row as an array, no object a row. Prepared at its first use too. */
function sqliteArrayRowsReader(database: BetterSqlite3.Database): ArrayRowsReader {
  return (sql) => {
    let statement: BetterSqlite3.Statement<unknown[], unknown[]> | undefined;
    return (parameters) => {
      if (!statement) {
        statement = database.prepare<unknown[], unknown[]>(sql);
        if (!statement.readonly) throw new Error(`a read of rows must not write: ${sql}`);
        statement.raw(true);
      }
      return statement.all(parameters);
    };
  };
}

/** Embedded SQLite storage: WAL mode, foreign keys on, case-sensitive LIKE as on PostgreSQL. */
export function openSqliteStorage(options: SqliteStorageOptions): Storage {
  const onDisk = options.file !== ':memory:' && options.file !== '';
  const warn = options.warn ?? ((message: string) => process.emitWarning(message));
  const error = options.error ?? ((message: string) => process.emitWarning(message));
  // Owner only: the files hold every row, and the -wal recent writes in full.
  const restrictFiles = () => {
    if (onDisk) restrictDatabaseFiles(options.file, warn);
  };
  if (onDisk) createPrivateDatabaseFile(options.file);
  // No busy timeout: a lock held by another process must not hold up this one's thread.
  // The driver waits for it on timers instead (BusyRetryingSqliteDriver).
  const database = new BetterSqlite3(options.file, { timeout: 0 });
  try {
    checkIntegrity(database, options, warn);
    database.pragma('journal_mode = WAL');
    database.pragma(`synchronous = ${options.synchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
    database.pragma('foreign_keys = ON');
    database.pragma('case_sensitive_like = ON');
    // A rewritten or deleted row leaves zeros, not its old bytes, in the page's free space:
    // a legacy clear community sealed in place (or any secret replaced) keeps no copy there.
    database.pragma('secure_delete = ON');
  } catch (failure) {
    database.close();
    throw failure;
  }
  restrictFiles();
  const identity = onDisk ? watchFileIdentity(options.file, { onLost: (reason) => fileLost(database, options.file, reason, error) }) : undefined;
  const cached = withStatementCache(database);
  const dialect = new BusyRetryingSqliteDialect(cached, {
    busyBudgetMs: options.busyBudgetMs ?? 2000,
    beforeWrite: () => {
      const lost = identity?.lost();
      if (lost !== undefined) throw fileLostError(lost);
    },
  });
  const db = new Kysely<Database>({ dialect });
  // Each commit fsyncs the -wal on the event loop: transactions ready in one turn share one (decision 191).
  const group = groupCommits(db);
  const storage = createKyselyStorage({
    db,
    quirks: { ...sqliteQuirks, listTimeBound: sqliteListTimeBound(database, options.listTimeBound) },
    // One service per data dir (openDms locks it): no other process runs its jobs.
    capabilities: { exclusiveOwner: true },
    // The migrations are the first write: a -wal or -shm created by it is restricted too.
    migrate: async (kysely) => {
      await migrateSqlite(kysely);
      restrictFiles();
    },
    listCache: createListCache(cached.dataVersion),
    firstRowReader: sqliteFirstRowReader(database),
    arrayRowsReader: sqliteArrayRowsReader(database),
    ...(options.now ? { now: options.now } : {}),
    ...(options.secrets ? { secrets: options.secrets } : {}),
    // The old pages with the clear text are still in the main file, and a crashed earlier
    // run may have left frames with it in the -wal: copy the sealed pages over them and
    // empty the -wal, once, on the start that sealed something.
    afterLegacySecretsSealed: async () => {
      database.pragma('wal_checkpoint(TRUNCATE)');
    },
  });
  const probe = writeProbe(database, dialect.driver, onDisk ? options.file : undefined, identity);
  const everyMs = typeof options.checkpointOffLoop === 'object' ? options.checkpointOffLoop.everyMs : undefined;
  const checkpointer = onDisk && options.checkpointOffLoop ? checkpointOffLoop(database, options.file, warn, everyMs) : undefined;
  const opened: Storage = {
    ...storage,
    ping: probe,
    close: async () => {
      // The transactions already queued commit (or fail) before the connection goes.
      await group.close();
      identity?.stop();
      // Before the service's connection: the last connection to close checkpoints the rest.
      await (await checkpointer)?.close();
      await storage.close();
    },
  };
  if (checkpointer) checkpointers.set(opened, checkpointer);
  return opened;
}

/**
 * Starts the worker's checkpoints, then turns the connection's own off: until the worker
 * answers, or if it cannot start (reported), SQLite checkpoints inside commits as before.
 */
async function checkpointOffLoop(
  database: BetterSqlite3.Database,
  file: string,
  warn: (message: string) => void,
  everyMs: number | undefined,
): Promise<WalCheckpointer | undefined> {
  try {
    const checkpointer = await startWalCheckpointer(file, {
      ...(everyMs === undefined ? {} : { everyMs }),
      // Its worker gone, the -wal would grow without end: SQLite's own checkpoints again.
      onError: (error) => {
        warn(`the -wal checkpointer stopped, the -wal is checkpointed on the event loop again: ${String(error)}`);
        if (database.open) database.pragma('wal_autocheckpoint = 1000');
      },
    });
    if (database.open) database.pragma('wal_autocheckpoint = 0');
    return checkpointer;
  } catch (error) {
    warn(`the -wal is checkpointed on the event loop: its worker did not start (${error instanceof Error ? error.message : String(error)})`);
    return undefined;
  }
}

function checkIntegrity(database: BetterSqlite3.Database, options: SqliteStorageOptions, warn: (message: string) => void): void {
  const mode = options.integrity ?? 'refuse';
  if (mode === 'skip') return;
  const problems = integrityProblems(database, 'quick');
  if (problems.length === 0) return;
  const damaged = new DatabaseDamagedError(options.file, problems);
  if (mode === 'refuse') throw damaged;
  warn(`serving a damaged database as DMS_ALLOW_DAMAGED_DATABASE asks: ${damaged.message}`);
}

function fileLostError(reason: string): DomainError {
  return new DomainError('unavailable', `${reason}: writes are refused until dms is restarted on a restored database`, { retryAfter: 30 });
}

/**
 * The file is gone from its path, but this connection still holds it, with every write dms
 * acknowledged: a copy is saved beside it (SQLite's online backup, in steps between other
 * work) for the operator to restore from.
 */
function fileLost(database: BetterSqlite3.Database, file: string, reason: string, error: (message: string) => void): void {
  const rescue = `${file}.rescued-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  error(
    `${reason}. Writes now answer 503 and /readyz fails. dms is saving what it holds to ${rescue}: stop dms, then restore ${file} from that copy or from your backup, and start dms again`,
  );
  void (async () => {
    try {
      createPrivateDatabaseFile(rescue);
      await database.backup(rescue);
      error(`saved the open database to ${rescue}`);
    } catch (failure) {
      error(`could not save the open database to ${rescue}: ${failure instanceof Error ? failure.message : String(failure)}`);
    }
  })();
}

/**
 * /readyz: ready means a write would succeed now. The path still names the open file, the
 * data dir has room, and one row is written and committed (a lock held elsewhere, a
 * read-only or failing file system answer here). Calls within a second share one probe.
 */
function writeProbe(database: BetterSqlite3.Database, driver: BusyRetryingSqliteDriver, file: string | undefined, identity: FileIdentityWatch | undefined) {
  let statement: BetterSqlite3.Statement | undefined;
  let last: { at: number; outcome: Promise<void> } | undefined;
  const unavailable = (message: string, cause?: unknown) =>
    new DomainError('unavailable', message, { retryAfter: 5, ...(cause === undefined ? {} : { cause }) });
  const probeOnce = async () => {
    const lost = await identity?.check();
    if (lost !== undefined) throw fileLostError(lost);
    if (file !== undefined) {
      const space = await statfs(dirname(file));
      // root may use the blocks reserved for it; anyone else only the available ones.
      const free = Number(process.getuid?.() === 0 ? space.bfree : space.bavail) * Number(space.bsize);
      if (free < minFreeBytes) throw unavailable(`the file system of ${dirname(file)} is full (${free} bytes free)`);
    }
    try {
      await driver.runExclusive(() => {
        statement ??= database.prepare('insert into write_probe (id, at) values (1, ?) on conflict (id) do update set at = excluded.at');
        statement.run(new Date().toISOString());
      });
    } catch (failure) {
      const code = (failure as { code?: string }).code ?? '';
      if (isSqliteBusy(failure))
        throw unavailable('the database is locked by another process (a sqlite3 shell or a script holding a write transaction)', failure);
      throw unavailable(`a write to the database fails: ${code} ${failure instanceof Error ? failure.message : String(failure)}`, failure);
    }
  };
  return async () => {
    const now = performance.now();
    if (!last || now - last.at >= probeEveryMs) last = { at: now, outcome: probeOnce() };
    await last.outcome;
  };
}
