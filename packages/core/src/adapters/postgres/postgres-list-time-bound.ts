import { sql } from 'kysely';
import type { ListTimeBound } from '../kysely/list-time-bound.js';

/** PostgreSQL's list time bound: a list holds a pool connection, not the loop (1000 ms). */
export const postgresListTimeBoundMs = 1000;

function sqlState(error: unknown): string {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
}

/**
 * A scanning list runs in a transaction of its own whose statement timeout is the bound
 * (`set_config(…, true)` is `SET LOCAL`: it ends with the transaction, so the pool's
 * connection keeps its own). A list inside a caller's transaction keeps that transaction's
 * timeout: changing it would outlive the list.
 */
export function postgresListTimeBound(ms: number = postgresListTimeBoundMs): ListTimeBound {
  return {
    ms,
    async run(db, work) {
      if (db.isTransaction) return work(db, () => undefined);
      return db.transaction().execute(async (trx) => {
        await sql`select set_config('statement_timeout', ${String(ms)}, true)`.execute(trx);
        return work(trx, () => undefined);
      });
    },
    // 57014: query_canceled, which a statement timeout raises.
    cancelled: (error) => sqlState(error) === '57014',
  };
}
