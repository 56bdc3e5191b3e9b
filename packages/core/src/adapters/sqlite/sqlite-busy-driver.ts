import { setTimeout as sleep } from 'node:timers/promises';
import {
  CompiledQuery,
  SelectQueryNode,
  SqliteAdapter,
  SqliteDialect,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  type QueryResult,
  type SqliteDatabase,
  type TransactionSettings,
} from 'kysely';
import { RollbackKeepsErrorDriver } from '../kysely/rollback-keeps-error.js';

/**
 * What the driver needs of the one SQLite connection beside Kysely's slice: whether a
 * transaction is open (better-sqlite3's `inTransaction`).
 */
export interface BusyAwareSqliteDatabase extends SqliteDatabase {
  readonly inTransaction: boolean;
}

export interface SqliteBusyOptions {
  /**
   * How long a statement or transaction that finds the write lock held by another process
   * (the `sqlite3` CLI, a backup script) keeps trying before its SQLITE_BUSY goes to the
   * caller (503 with Retry-After). The waiting is on timers: the event loop stays free.
   */
  busyBudgetMs: number;
  /** Runs before any write; throws to refuse it (the database file was deleted or replaced). */
  beforeWrite(): void;
}

export function isSqliteBusy(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && String(error.code).startsWith('SQLITE_BUSY');
}

/**
 * SQLite's single connection behind a mutex, as Kysely's own SqliteDriver, with one change:
 * the connection runs with busy_timeout 0, so a lock held by another process never blocks
 * the thread. A write transaction starts with BEGIN IMMEDIATE (the write lock first, before
 * any statement of it has run), and a BUSY there, or on a statement outside a transaction,
 * is tried again after a growing pause with the connection released meanwhile: other
 * requests (reads need no lock in WAL mode) run between the tries. Nothing is applied twice:
 * a statement outside a transaction that answers BUSY changed nothing, and a transaction is
 * only ever retried at its BEGIN, before its callback ran.
 */
export class BusyRetryingSqliteDriver implements Driver {
  readonly #mutex = new ConnectionMutex();
  readonly #database: BusyAwareSqliteDatabase;
  readonly #options: SqliteBusyOptions;
  readonly #connection: BusyRetryingConnection;

  constructor(database: BusyAwareSqliteDatabase, options: SqliteBusyOptions) {
    this.#database = database;
    this.#options = options;
    this.#connection = new BusyRetryingConnection(database, this);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#mutex.lock();
    return this.#connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    if (settings.accessMode === 'read only') {
      await connection.executeQuery(CompiledQuery.raw('begin'));
      return;
    }
    this.#options.beforeWrite();
    await this.whileBusy(() => this.#database.prepare('begin immediate').run([]));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    // SQLite rolls a transaction back itself on some errors (SQLITE_FULL, SQLITE_IOERR, …): a
    // ROLLBACK then fails with "no transaction is active", which is no news.
    if (!this.#database.inTransaction) return;
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoteName(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to ${quoteName(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release ${quoteName(name)}`));
  }

  async releaseConnection(): Promise<void> {
    this.#mutex.unlock();
  }

  async destroy(): Promise<void> {
    this.#database.close();
  }

  /**
   * Runs `fn` on the connection as one more user of it (after any open transaction), once,
   * without waiting on a busy lock: the readiness probe, which must answer at once.
   */
  async runExclusive<T>(fn: () => T): Promise<T> {
    await this.#mutex.lock();
    try {
      return fn();
    } finally {
      this.#mutex.unlock();
    }
  }

  /** Checked by the connection before a statement that may write, outside a transaction. */
  beforeWrite(): void {
    this.#options.beforeWrite();
  }

  /**
   * Calls `attempt` (the caller holds the connection) until it does not answer BUSY or the
   * budget is spent; between tries the connection is released, then taken again.
   */
  async whileBusy<T>(attempt: () => T): Promise<T> {
    const started = performance.now();
    for (let pause = 2; ; pause = Math.min(pause * 2, 100)) {
      try {
        return attempt();
      } catch (error) {
        const left = this.#options.busyBudgetMs - (performance.now() - started);
        if (!isSqliteBusy(error) || left <= 0) throw error;
        this.#mutex.unlock();
        try {
          await sleep(Math.min(pause, left));
        } finally {
          await this.#mutex.lock();
        }
      }
    }
  }
}

/** Savepoint names come from Kysely's API; quoted as identifiers all the same. */
function quoteName(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

class BusyRetryingConnection implements DatabaseConnection {
  constructor(
    private readonly database: BusyAwareSqliteDatabase,
    private readonly driver: BusyRetryingSqliteDriver,
  ) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const { sql, parameters } = compiledQuery;
    const statement = this.database.prepare(sql) as ReturnType<SqliteDatabase['prepare']> & { readonly?: boolean };
    const run = (): QueryResult<R> => {
      if (statement.reader) return { rows: statement.all(parameters) as R[] };
      const { changes, lastInsertRowid } = statement.run(parameters);
      return {
        numAffectedRows: changes === undefined || changes === null ? undefined : BigInt(changes),
        insertId: lastInsertRowid === undefined || lastInsertRowid === null ? undefined : BigInt(lastInsertRowid),
        rows: [],
      };
    };
    // Inside a transaction the write lock is already held (BEGIN IMMEDIATE), or the
    // transaction is read-only: a BUSY there ends the transaction, which is retried whole
    // by no one but its caller.
    if (this.database.inTransaction) return run();
    if (statement.readonly !== true) this.driver.beforeWrite();
    return await this.driver.whileBusy(run);
  }

  async *streamQuery<R>(compiledQuery: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const { sql, parameters, query } = compiledQuery;
    if (!SelectQueryNode.is(query)) throw new Error('the SQLite driver streams select queries only');
    for (const row of this.database.prepare(sql).iterate(parameters)) yield { rows: [row as R] };
  }
}

/** One user of the connection at a time, as in Kysely's SqliteDriver. */
class ConnectionMutex {
  #promise: Promise<void> | undefined;
  #resolve: (() => void) | undefined;

  async lock(): Promise<void> {
    while (this.#promise) await this.#promise;
    this.#promise = new Promise((resolve) => {
      this.#resolve = resolve;
    });
  }

  unlock(): void {
    const resolve = this.#resolve;
    this.#promise = undefined;
    this.#resolve = undefined;
    resolve?.();
  }
}

/** Kysely's SQLite dialect with this driver in place of its own (its failed ROLLBACK never hiding the error before it). */
export class BusyRetryingSqliteDialect extends SqliteDialect {
  readonly #driver: BusyRetryingSqliteDriver;

  constructor(database: BusyAwareSqliteDatabase, options: SqliteBusyOptions) {
    super({ database });
    this.#driver = new BusyRetryingSqliteDriver(database, options);
  }

  get driver(): BusyRetryingSqliteDriver {
    return this.#driver;
  }

  override createDriver(): Driver {
    return new RollbackKeepsErrorDriver(this.#driver);
  }

  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
}

/**
 * SQLite runs DDL inside a transaction, which Kysely's adapter does not claim: with the claim,
 * Kysely's Migrator runs the pending migrations and their records in one transaction, so a
 * start killed part-way through them (a first start, an upgrade) leaves none of their tables
 * half-made, and the next start runs them again from the start.
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}
