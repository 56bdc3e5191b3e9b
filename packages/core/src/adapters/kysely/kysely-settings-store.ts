import type { Kysely } from 'kysely';
import type { SettingsStore } from '../../ports/storage.js';
import type { Database } from './kysely-schema.js';

export class KyselySettingsStore implements SettingsStore {
  constructor(private readonly db: Kysely<Database>) {}

  async get<T>(key: string): Promise<T | undefined> {
    const row = await this.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
    return row === undefined ? undefined : (JSON.parse(row.value) as T);
  }

  async set<T>(key: string, value: T): Promise<void> {
    const text = JSON.stringify(value);
    await this.db
      .insertInto('settings')
      .values({ key, value: text })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: text }))
      .execute();
  }
}
