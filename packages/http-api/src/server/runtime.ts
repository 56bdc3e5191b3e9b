import { join } from 'node:path';
import { hkdfSync } from 'node:crypto';
import { createAesGcmSecretBox, createCore, type Core, type Storage, type TrapSender } from '@dms/core';
import { openSqliteStorage } from '@dms/core/sqlite';
import { createShareDriverRegistry } from '@dms/core/drivers';
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
export interface RuntimeOptions {
  trapSender?: TrapSender;
  onTrapSendError?: (error: unknown) => void;
}

export async function openRuntime(config: ServerConfig, options: RuntimeOptions = {}): Promise<Runtime> {
  const storage = await openStorage(config);
  await storage.migrate();
  const secretKey = loadSecretKey(config.secretKey, config.dataDir);
  const core = createCore({
    storage,
    secrets: createAesGcmSecretBox(secretKey),
    // A key of its own for JWTs: a token never helps to open a sealed secret, nor the reverse.
    jwtKey: new Uint8Array(hkdfSync('sha256', secretKey, 'dms', 'dms-jwt-hs256-v1', 32)),
    drivers: createShareDriverRegistry({ localRoots: config.localRoots }),
    engine: { concurrency: config.jobConcurrency, driverTimeoutMs: config.driverTimeoutMs },
    ...options,
  });
  return { config, storage, core, close: () => storage.close() };
}
