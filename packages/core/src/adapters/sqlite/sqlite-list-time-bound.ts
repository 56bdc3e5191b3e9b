import { sql, type SqlBool } from 'kysely';
import type BetterSqlite3 from 'better-sqlite3';
import type { ListTimeBound } from '../kysely/list-time-bound.js';

export interface SqliteListTimeBoundOptions {
  /** A scanning list's statements together run at most this long: they hold the event loop (60 ms). */
  ms?: number;
  /** Milliseconds on a monotonic clock (tests drive their own). */
  clock?: () => number;
}

/** SQLite's list time bound: the loop is held while a statement runs, so it stays short. */
export const sqliteListTimeBoundMs = 60;
const functionName = 'dms_list_within_bound';

class ListTimeBoundCancel extends Error {
  override readonly name = 'ListTimeBoundCancel';
}

/**
 * better-sqlite3 runs a statement on the event loop's thread and offers no progress handler nor
 * interrupt, so the bound is a function the statements call on every row they read, first in
 * their WHERE clause: the first call with a new token (one per list) starts the clock, a later
 * one past the bound throws, and the statement stops with that error.
 *
 * Scanning lists also take turns, one per turn of the loop (setImmediate after the last one
 * ended; not inside a transaction): lists sent together would otherwise run back to back in one turn, each within its
 * bound and all of them holding the loop.
 */
export function sqliteListTimeBound(database: BetterSqlite3.Database, options: SqliteListTimeBoundOptions = {}): ListTimeBound {
  const ms = options.ms ?? sqliteListTimeBoundMs;
  const clock = options.clock ?? (() => performance.now());
  let issued = 0;
  let running = 0;
  let startedAt = 0;
  database.function(functionName, { deterministic: false }, (token) => {
    if (token !== running) {
      running = Number(token);
      startedAt = clock();
    } else if (clock() - startedAt > ms) {
      throw new ListTimeBoundCancel(`list statement past ${ms} ms`);
    }
    return 1;
  });
  let turn: Promise<unknown> = Promise.resolve();
  return {
    ms,
    run(db, work) {
      const token = ++issued;
      const check = () => sql<SqlBool>`${sql.raw(functionName)}(${token}) = 1`;
      // A caller's transaction holds the one connection: waiting behind another list would never end.
      if (db.isTransaction) return work(db, check);
      const mine = turn.then(async () => {
        await new Promise((resolve) => setImmediate(resolve));
        return work(db, check);
      });
      turn = mine.catch(() => undefined);
      return mine;
    },
    cancelled: (error) => error instanceof ListTimeBoundCancel,
  };
}
