import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createAesGcmSecretBox, DataDirInUseError, loadSecretKey } from '@dms/core/runtime';
import type { BackupInspection } from '@dms/core/sqlite';
import type { ServerConfig } from '@dms/http-api';
import { commandConfig } from './command-environment.js';
import { postgresBackupAdvice } from './backup-command.js';
import { CliError } from './cli-error.js';
import type { Output } from './with-dms.js';

/**
 * Refuses a backup whose sealed secrets the data dir's key cannot open: restored, it would serve
 * share passwords and SNMP communities no one can read. Checked before anything is replaced.
 */
async function checkSecretKey(config: ServerConfig, backupFile: string, inspection: BackupInspection): Promise<string> {
  const keyFile = join(config.dataDir, 'secret.key');
  const where = config.secretKey !== undefined ? 'DMS_SECRET_KEY' : keyFile;
  const putKeyBack = `put the secret.key kept with that backup at ${keyFile} (or set DMS_SECRET_KEY to that key), then run 'dms restore' again; nothing was changed`;
  if (config.secretKey === undefined && !existsSync(keyFile)) {
    if (inspection.sealed.length === 0) return 'the backup holds no sealed secret; dms creates a secret key at its next start';
    throw new CliError(`the data dir ${config.dataDir} has no secret key, and ${backupFile} holds secrets sealed with one: ${putKeyBack}`);
  }
  const { secretThatDoesNotOpen } = await import('@dms/core/sqlite');
  const what = secretThatDoesNotOpen(inspection.sealed, createAesGcmSecretBox(loadSecretKey(config.secretKey, config.dataDir)));
  if (what !== undefined)
    throw new CliError(`the secret key (${where}) cannot open ${what} sealed in ${backupFile}: the backup was sealed with another key; ${putKeyBack}`);
  return inspection.sealed.length === 0 ? 'the backup holds no sealed secret' : `its sealed secrets open with ${where}`;
}

/**
 * `dms restore FILE`: puts a `dms backup` copy in place as the database of a stopped data dir,
 * after checking it (integrity, migrations this dms knows, sealed secrets the key opens). The
 * database it replaces is kept beside it.
 */
export async function restore(given: string, out: Output): Promise<number> {
  const config = commandConfig();
  process.stderr.write(`dms: data dir ${config.dataDir}\n`);
  if (config.databaseUrl !== undefined) throw new CliError(postgresBackupAdvice('restore'));
  const backupFile = resolve(given);
  const file = join(config.dataDir, 'dms.sqlite');
  if (backupFile === file) throw new CliError(`${backupFile} is the database of the data dir itself: give the path of a backup`);
  // Loaded here: only the SQLite commands need better-sqlite3.
  const { BackupRefusedError, inspectSqliteBackup, lockDataDir, replaceDatabaseFile } = await import('@dms/core/sqlite');
  let inspection: BackupInspection;
  try {
    inspection = await inspectSqliteBackup(backupFile);
  } catch (error) {
    if (error instanceof BackupRefusedError) throw new CliError(`${error.message}; nothing was changed`);
    throw error;
  }
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  // The service's own lock, held until the file is in place: no dms starts on it meanwhile.
  let lock: { release(): void };
  try {
    lock = lockDataDir(config.dataDir);
  } catch (error) {
    if (error instanceof DataDirInUseError)
      throw new CliError(
        `the data dir ${config.dataDir} is in use by ${error.pid === undefined ? 'a running dms' : `a running dms (process ${error.pid})`}: stop it, then run 'dms restore' again; nothing was changed`,
      );
    throw error;
  }
  try {
    const keyCheck = await checkSecretKey(config, backupFile, inspection);
    const kept = replaceDatabaseFile(backupFile, file);
    const pending = inspection.pendingMigrations > 0 ? `; the next start runs the ${inspection.pendingMigrations} newer migrations` : '';
    out(`restored ${backupFile} to ${file}: integrity checked, ${inspection.migrations} migrations${pending}, ${keyCheck}`);
    if (kept !== undefined) out(`the database it replaced is kept as ${kept} (with its -wal, if it had one); delete it once dms runs well`);
    out("start dms again: 'dms serve'");
    return 0;
  } finally {
    lock.release();
  }
}
