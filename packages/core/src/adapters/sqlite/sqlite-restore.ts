import { chmodSync, copyFileSync, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type { SecretBox } from '../../ports/secret-box.js';
import { secretColumn } from '../kysely/kysely-secret-column.js';
import { syncFile } from './sqlite-backup.js';
import { databaseFiles } from './sqlite-file-modes.js';
import { integrityProblems } from './sqlite-integrity.js';
import { sqliteMigrations } from './sqlite-migrations.js';
import { schemaDifference, schemaOf, schemaOfMigrations } from './sqlite-schema-check.js';

/** A backup `dms restore` will not put in place; the message says why and what to do. */
export class BackupRefusedError extends Error {
  override readonly name = 'BackupRefusedError';
}

/**
 * The columns that hold values sealed with the secret key (SecretBox): all of them. A column a
 * backup's schema lacks (an older version's) is passed over.
 */
const sealedColumns = [
  { table: 'nas_shares', column: 'password_enc', what: 'a share password' },
  { table: 'snmp_traps', column: 'community', what: 'an SNMP trap community' },
  { table: 'snmp_traps', column: 'auth_passphrase', what: 'an SNMPv3 trap target passphrase' },
  { table: 'snmp_traps', column: 'priv_passphrase', what: 'an SNMPv3 trap target passphrase' },
  { table: 'snmp_server_configuration', column: 'community', what: 'the SNMP agent community' },
  { table: 'snmp_server_configuration', column: 'users', what: "the SNMP agent's v3 users" },
  { table: 'jobs', column: 'payload_enc', what: 'a job payload' },
] as const;

/** Sealed values read from each column, enough to tell a wrong key. */
const samplesPerColumn = 3;

export interface SealedSample {
  what: string;
  sealed: string;
}

export interface BackupInspection {
  /** Migrations the backup has run, and how many this dms would still run at its next start. */
  migrations: number;
  pendingMigrations: number;
  /** A few sealed values from each secret column: none in a backup that holds no secret. */
  sealed: SealedSample[];
}

/**
 * What `dms restore` checks before it replaces anything: a SQLite file SQLite finds sound
 * (PRAGMA integrity_check and foreign_key_check), a dms database, from this dms version or an
 * earlier one, whose schema (tables, indexes, triggers, views and their SQL) is exactly what its
 * recorded migrations create. Rejects with BackupRefusedError naming the problem and the way out.
 */
export async function inspectSqliteBackup(file: string): Promise<BackupInspection> {
  if (!existsSync(file)) throw new BackupRefusedError(`${file} does not exist: give the path of a file written by 'dms backup'`);
  const wal = statSync(`${file}-wal`, { throwIfNoEntry: false });
  if (wal && wal.size > 0)
    throw new BackupRefusedError(
      `${file} has a ${file}-wal beside it, with writes the file alone lacks: run 'sqlite3 ${file} "PRAGMA wal_checkpoint(TRUNCATE)"' first`,
    );
  let database: BetterSqlite3.Database;
  try {
    database = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw notADatabase(file, error);
  }
  try {
    // The header is read at the first statement: a file that is no database fails here.
    database.prepare('select count(*) from sqlite_master').get();
  } catch (error) {
    database.close();
    throw notADatabase(file, error);
  }
  try {
    const problems = integrityProblems(database, 'full');
    if (problems.length > 0) {
      const first = problems.flatMap((problem) => problem.split('\n')).slice(0, 3);
      throw new BackupRefusedError(
        `${file} is damaged (${first.join('; ')}): restore an older backup, or save what is readable with 'sqlite3 ${file} .recover'`,
      );
    }
    const hasMigrations = database.prepare("select 1 from sqlite_master where type = 'table' and name = 'kysely_migration'").get() !== undefined;
    if (!hasMigrations)
      throw new BackupRefusedError(`${file} is a SQLite database but not a dms one (it has no migration table): give a file written by 'dms backup'`);
    const applied = (database.prepare('select name from kysely_migration order by name').all() as Array<{ name: string }>).map((row) => row.name);
    const known = Object.keys(sqliteMigrations);
    const unknown = applied.filter((name) => !known.includes(name));
    if (unknown.length > 0)
      throw new BackupRefusedError(`${file} comes from a newer dms (migrations ${unknown.join(', ')} are unknown to this one): upgrade dms, then restore it`);
    const difference = schemaDifference(schemaOf(database), await schemaOfMigrations(applied));
    if (difference !== undefined)
      throw new BackupRefusedError(
        `${file} holds ${difference}: it was changed after 'dms backup' wrote it, and dms restores only the schema its migrations create; restore another backup`,
      );
    return { migrations: applied.length, pendingMigrations: known.length - applied.length, sealed: sealedSamples(database) };
  } finally {
    database.close();
  }
}

function notADatabase(file: string, error: unknown): BackupRefusedError {
  return new BackupRefusedError(
    `${file} cannot be opened as a SQLite database (${error instanceof Error ? error.message : String(error)}): give a file written by 'dms backup'`,
  );
}

function sealedSamples(database: BetterSqlite3.Database): SealedSample[] {
  const { isLegacy } = secretColumn(undefined);
  const samples: SealedSample[] = [];
  for (const { table, column, what } of sealedColumns) {
    const columns = database.pragma(`table_info(${table})`) as Array<{ name: string }>;
    if (!columns.some((found) => found.name === column)) continue;
    // Names from the constant above, never from input: no parameter can stand for them.
    const rows = database.prepare(`select ${column} as value from ${table} where ${column} like 'v1:%' limit 100`).all() as Array<{ value: string }>;
    for (const { value } of rows.filter((row) => !isLegacy(row.value)).slice(0, samplesPerColumn)) samples.push({ what, sealed: value });
  }
  return samples;
}

/** What in the backup the key cannot open (`a share password`), or undefined when it opens every sample. */
export function secretThatDoesNotOpen(samples: readonly SealedSample[], box: SecretBox): string | undefined {
  for (const sample of samples) {
    try {
      box.open(sample.sealed);
    } catch {
      return sample.what;
    }
  }
  return undefined;
}

/**
 * Puts the backup in place as the database file of a stopped service: copied beside it and
 * flushed first, then the database (with its -wal and -shm, which may hold commits of their
 * own) renamed aside as `<file>.before-restore-<time>`, then the copy renamed in. Resolves the
 * name the replaced database was kept under, if there was one.
 */
export function replaceDatabaseFile(backup: string, file: string, at: Date = new Date()): string | undefined {
  const incoming = `${file}.restoring-${process.pid}`;
  try {
    copyFileSync(backup, incoming);
    chmodSync(incoming, 0o600);
    syncFile(incoming);
  } catch (error) {
    rmSync(incoming, { force: true });
    throw error;
  }
  const aside = `${file}.before-restore-${at.toISOString().replace(/[:.]/g, '-')}`;
  let kept: string | undefined;
  for (const path of databaseFiles(file)) {
    if (!existsSync(path)) continue;
    renameSync(path, aside + path.slice(file.length));
    if (path === file) kept = aside;
  }
  renameSync(incoming, file);
  syncFile(dirname(file));
  return kept;
}
