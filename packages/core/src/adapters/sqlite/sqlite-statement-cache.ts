import type { SqliteDatabase, SqliteStatement } from 'kysely';

export interface CachingSqliteDatabase extends SqliteDatabase {
  /**
   * Changes whenever the database may have changed: after any write through this
   * connection, and when another connection (a CLI command) commits (`PRAGMA data_version`).
   */
  dataVersion(): string;
  /** better-sqlite3's: a transaction is open on the connection. */
  readonly inTransaction: boolean;
}

/**
 * Kysely's SQLite driver prepares every statement anew; preparing costs more than running
 * a point query. This wraps the database so each distinct SQL text is prepared once (the
 * texts are Kysely's compiled queries with `?` parameters, so the set stays small; the
 * bound keeps dynamic list queries from growing it without limit).
 */
export function withStatementCache(
  database: SqliteDatabase & { pragma(source: string, options: { simple: true }): unknown; readonly inTransaction: boolean },
  maxStatements = 500,
): CachingSqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  let writes = 0;
  // better-sqlite3 marks every statement that can write (INSERT … RETURNING is a reader too).
  const countWrites = (statement: SqliteStatement & { readonly?: boolean }): SqliteStatement => {
    if (statement.readonly !== false) return statement;
    return {
      reader: statement.reader,
      run(parameters) {
        writes += 1;
        return statement.run(parameters);
      },
      all(parameters) {
        writes += 1;
        return statement.all(parameters);
      },
      iterate(parameters) {
        writes += 1;
        return statement.iterate(parameters);
      },
    };
  };
  return {
    close: () => {
      cache.clear();
      database.close();
    },
    prepare(sql: string): SqliteStatement {
      const cached = cache.get(sql);
      if (cached) return cached;
      const statement = countWrites(database.prepare(sql));
      if (cache.size >= maxStatements) cache.delete(cache.keys().next().value!);
      cache.set(sql, statement);
      return statement;
    },
    get inTransaction() {
      return database.inTransaction;
    },
    dataVersion: () => `${writes}:${String(database.pragma('data_version', { simple: true }))}`,
  };
}
