import { join } from 'node:path';
import { createAesGcmSecretBox, createCore, type Core, type Storage } from '@dms/core';
import { openSqliteStorage } from '@dms/core/sqlite';
import type { ServerConfig } from './config.js';
import { loadSecretKey } from './secret-key.js';

export interface Runtime {
  config: ServerConfig;
  storage: Storage;
  core: Core;
  close(): Promise<void>;
}

async function openStorage(config: ServerConfig): Promise<Storage> {
  if (config.databaseUrl === undefined) return openSqliteStorage({ file: join(config.dataDir, 'dms.sqlite') });
  throw new Error(`DMS_DATABASE_URL '${config.databaseUrl.replace(/\/\/[^@]*@/, '//***@')}' is not supported by this build: PostgreSQL support is not built yet`);
}

/** Storage, secrets and services, migrated: what `serve` and every CLI command start from. */
export async function openRuntime(config: ServerConfig): Promise<Runtime> {
  const storage = await openStorage(config);
  await storage.migrate();
  const core = createCore({ storage, secrets: createAesGcmSecretBox(loadSecretKey(config.secretKey, config.dataDir)) });
  return { config, storage, core, close: () => storage.close() };
}
