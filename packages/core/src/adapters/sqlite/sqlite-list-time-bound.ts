import { sql } from 'kysely';
import type BetterSqlite3 from 'better-sqlite3';
import type { ListTimeBound } from '../kysely/list-time-bound.js';

export interface SqliteListTimeBoundOptions {
  /** Each statement of a scanning list runs at most this long: it holds the event loop (100 ms). */
  ms?: number;
  /** Milliseconds on a monotonic clock (tests drive their own). */
  clock?: () => number;
}

/** SQLite's list time bound: the loop is held while a statement runs, so it stays short. */
export const sqliteListTimeBoundMs = 100;
const functionName = 'dms_list_within_bound';

class ListTimeBoundCancel extends Error {
  override readonly name = 'ListTimeBoundCancel';
}

/**
 * better-sqlite3 runs a statement on the event loop's thread and offers no progress handler nor
 * interrupt, so the bound is a function the statement calls on every row it reads, first in its
 * WHERE clause: the first call (a new token: one per statement, which run one at a time on the
 * one connection) starts the clock, a later one past the bound throws, and the statement stops
 * with that error.
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
  return {
    ms,
    run: (db, work) => work(db, () => sql`${sql.raw(functionName)}(${++issued}) = 1`),
    cancelled: (error) => error instanceof ListTimeBoundCancel,
  };
}
