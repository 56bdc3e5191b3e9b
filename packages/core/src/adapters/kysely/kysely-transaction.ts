import type { Kysely, Transaction } from 'kysely';
import type { Database } from './kysely-schema.js';

/**
 * Runs `work` in a transaction: its own, or the one `db` already is (Storage.transaction hands
 * stores built over it), so a store's atomic write joins the change it is part of instead of
 * failing (Kysely has no nested transactions).
 */
export function inTransaction<T>(db: Kysely<Database>, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db as Transaction<Database>);
  return db.transaction().execute(work);
}
