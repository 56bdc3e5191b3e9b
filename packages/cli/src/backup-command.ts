import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { formatBytes } from '@dms/core';
import { commandConfig } from './command-environment.js';
import { CliError } from './cli-error.js';
import type { Output } from './with-dms.js';

/** `dms backup` and `dms restore` on PostgreSQL: its own tools do it (README, Backups). */
export function postgresBackupAdvice(command: 'backup' | 'restore'): string {
  return command === 'backup'
    ? `dms backup copies the SQLite database of a data dir; on PostgreSQL use pg_dump: pg_dump --format=custom --file=dms.dump "$DMS_DATABASE_URL" (README, Backups), and keep DMS_SECRET_KEY with it`
    : `dms restore puts back a SQLite backup; on PostgreSQL stop every replica and use pg_restore: pg_restore --clean --if-exists --no-owner --dbname="$DMS_DATABASE_URL" dms.dump (README, Backups)`;
}

/** What the operator must keep beside the database copy: the key is not in it, on purpose. */
function secretKeyReminder(dataDir: string, fromEnvironment: boolean): string {
  const key = fromEnvironment ? 'the secret key (DMS_SECRET_KEY)' : `the secret key ${join(dataDir, 'secret.key')}`;
  return (
    `${key} is not in the backup: keep a copy of it apart from your backups (it never changes); ` +
    `without it the sealed secrets in the backup (share passwords, SNMP communities) cannot be opened, and 'dms restore' refuses the backup`
  );
}

/**
 * `dms backup FILE`: a consistent copy of the SQLite database, taken beside a running `dms serve`
 * (no data dir lock; SQLite's online backup over a read-only connection) or a stopped one.
 */
export async function backup(file: string, out: Output): Promise<number> {
  const config = commandConfig();
  process.stderr.write(`dms: data dir ${config.dataDir}\n`);
  if (config.databaseUrl !== undefined) throw new CliError(postgresBackupAdvice('backup'));
  const source = join(config.dataDir, 'dms.sqlite');
  if (!existsSync(source)) throw new CliError(`no dms database at ${source}; set DMS_DATA_DIR to the data dir of your dms`);
  const destination = resolve(file);
  if (destination === source || destination.startsWith(`${source}-`))
    throw new CliError(`${destination} is the database itself: write the backup to another file, outside the data dir`);
  if (!existsSync(dirname(destination))) throw new CliError(`the directory ${dirname(destination)} does not exist: create it, or write the backup elsewhere`);
  // Loaded here: only the SQLite commands need better-sqlite3.
  const { backupSqliteFile } = await import('@dms/core/sqlite');
  const result = await backupSqliteFile(source, destination);
  out(
    `backed up ${source} to ${result.file}: ${formatBytes(result.bytes)}, every write committed before ` +
      `${new Date(result.snapshotNotBefore).toISOString()} is in it (${Math.round(result.durationMs)} ms)`,
  );
  out(secretKeyReminder(config.dataDir, config.secretKey !== undefined));
  return 0;
}
