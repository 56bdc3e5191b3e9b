import { join } from 'node:path';
import { hkdfSync } from 'node:crypto';
import { createAesGcmSecretBox, createCore, type Core, type SecretBox, type Storage, type TrapSender } from '@dms/core';
import { openSqliteStorage } from '@dms/core/sqlite';
import { createShareDriverRegistry } from '@dms/core/drivers';
import type { ServerConfig } from './config.js';
import { loadSecretKey, preparePrivateDataDir } from './secret-key.js';

export interface Runtime {
  config: ServerConfig;
  storage: Storage;
  core: Core;
  close(): Promise<void>;
}

async function openStorage(config: ServerConfig, secrets: SecretBox, warn: (message: string) => void): Promise<Storage> {
  if (config.databaseUrl === undefined) return openSqliteStorage({ file: join(config.dataDir, 'dms.sqlite'), secrets, warn });
  throw new Error(`DMS_DATABASE_URL '${config.databaseUrl.replace(/\/\/[^@]*@/, '//***@')}' is not supported by this build: PostgreSQL support is not built yet`);
}

/** Storage, secrets and services, migrated: what `serve` and every CLI command start from. */
export interface RuntimeOptions {
  trapSender?: TrapSender;
  onTrapSendError?: (error: unknown) => void;
  /** A data dir or database file open to other users; stderr when not given. */
  warn?: (message: string) => void;
}

function warnOnStderr(message: string): void {
  process.stderr.write(`[dms] warning: ${message}\n`);
}

export async function openRuntime(config: ServerConfig, options: RuntimeOptions = {}): Promise<Runtime> {
  const { warn = warnOnStderr, ...coreOptions } = options;
  preparePrivateDataDir(config.dataDir, warn);
  // The key first: the storage seals SNMP communities with it, and its migrate() seals
  // those an earlier version stored in clear.
  const secretKey = loadSecretKey(config.secretKey, config.dataDir);
  const secrets = createAesGcmSecretBox(secretKey);
  const storage = await openStorage(config, secrets, warn);
  await storage.migrate();
  const core = createCore({
    storage,
    secrets,
    // A key of its own for JWTs: a token never helps to open a sealed secret, nor the reverse.
    jwtKey: new Uint8Array(hkdfSync('sha256', secretKey, 'dms', 'dms-jwt-hs256-v1', 32)),
    drivers: createShareDriverRegistry({ localRoots: config.localRoots }),
    engine: { concurrency: config.jobConcurrency, driverTimeoutMs: config.driverTimeoutMs },
    ...coreOptions,
  });
  return { config, storage, core, close: () => storage.close() };
}
