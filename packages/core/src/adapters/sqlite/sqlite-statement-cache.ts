import type { SqliteDatabase, SqliteStatement } from 'kysely';

/**
 * Kysely's SQLite driver prepares every statement anew; preparing costs more than running
 * a point query. This wraps the database so each distinct SQL text is prepared once (the
 * texts are Kysely's compiled queries with `?` parameters, so the set stays small; the
 * bound keeps dynamic list queries from growing it without limit).
 */
export function withStatementCache(database: SqliteDatabase, maxStatements = 500): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => {
      cache.clear();
      database.close();
    },
    prepare(sql: string): SqliteStatement {
      const cached = cache.get(sql);
      if (cached) return cached;
      const statement = database.prepare(sql);
      if (cache.size >= maxStatements) cache.delete(cache.keys().next().value!);
      cache.set(sql, statement);
      return statement;
    },
  };
}
