import { inTransaction } from './kysely-transaction.js';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { SettingChange, SettingsStore } from '../../ports/storage.js';
import type { Database } from './kysely-schema.js';
import type { DialectQuirks } from './kysely-dialect-quirks.js';

/** A first write of a key raced by another replica's: the loser's transaction runs again. */
const attemptsOnFirstWriteRace = 3;

export class KyselySettingsStore implements SettingsStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly quirks: DialectQuirks,
  ) {}

  async get<T>(key: string): Promise<T | undefined> {
    const row = await this.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
    return row === undefined ? undefined : (JSON.parse(row.value) as T);
  }

  async set<T>(key: string, value: T): Promise<void> {
    await upsert(this.db, key, value);
  }

  async update<T>(key: string, change: (current: T | undefined) => SettingChange<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await inTransaction(this.db, (trx) => this.#updateIn(trx, key, change));
      } catch (error) {
        // No row to lock yet: two first writes both insert, and one meets the other's key.
        if (attempt >= attemptsOnFirstWriteRace || !this.quirks.isUniqueViolation(error)) throw error;
      }
    }
  }

  async #updateIn<T>(trx: Transaction<Database>, key: string, change: (current: T | undefined) => SettingChange<T>): Promise<T> {
    const row = await trx.selectFrom('settings').select('value').where('key', '=', key).modifyEnd(sql.raw(this.quirks.rowLockClause)).executeTakeFirst();
    const { value, alsoSet = {} } = change(row === undefined ? undefined : (JSON.parse(row.value) as T));
    if (row === undefined)
      await trx
        .insertInto('settings')
        .values({ key, value: JSON.stringify(value) })
        .execute();
    else
      await trx
        .updateTable('settings')
        .set({ value: JSON.stringify(value) })
        .where('key', '=', key)
        .execute();
    for (const [otherKey, otherValue] of Object.entries(alsoSet)) await upsert(trx, otherKey, otherValue);
    return value;
  }
}

function upsert(db: Kysely<Database>, key: string, value: unknown) {
  const text = JSON.stringify(value);
  return db
    .insertInto('settings')
    .values({ key, value: text })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: text }))
    .execute();
}
