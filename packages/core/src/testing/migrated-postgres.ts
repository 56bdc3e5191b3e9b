import { openPostgresStorage } from '../adapters/postgres/postgres-storage.js';
import type { Storage } from '../ports/storage.js';
import { createTestDatabase } from './postgres-test-database.js';

/** A test database of its own with the service's storage migrated on it. */
export interface MigratedPostgres {
  url: string;
  storage: Storage;
  /** Closes the storage, then drops the database. */
  close(): Promise<void>;
}

/** Creates the database and migrates it through the PostgreSQL storage (a pool of two). */
export async function migratedPostgres(): Promise<MigratedPostgres> {
  const database = await createTestDatabase();
  const storage = openPostgresStorage({ url: database.url, poolMax: 2 });
  await storage.migrate();
  return {
    url: database.url,
    storage,
    async close() {
      await storage.close();
      await database.drop();
    },
  };
}
