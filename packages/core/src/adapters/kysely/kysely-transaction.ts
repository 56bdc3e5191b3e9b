import type { Kysely, Transaction } from 'kysely';
import type { Database } from './kysely-schema.js';
import { transactionGroupOf } from './kysely-transaction-group.js';

/**
 * Runs `work` in a transaction: its own, or the one `db` already is (Storage.transaction hands
 * stores built over it), so a store's atomic write joins the change it is part of instead of
 * failing (Kysely has no nested transactions). Where the storage groups its commits (SQLite,
 * decision 191), its own transaction is a savepoint in the next group's.
 */
export function inTransaction<T>(db: Kysely<Database>, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db as Transaction<Database>);
  const group = transactionGroupOf(db);
  if (group) return group.run(work);
  return db.transaction().execute(work);
}
