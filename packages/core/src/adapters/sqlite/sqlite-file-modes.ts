import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/** The database, its write-ahead log and its shared memory: all hold row data. */
export function databaseFiles(file: string): string[] {
  return [file, `${file}-wal`, `${file}-shm`];
}

/**
 * Creates a missing directory 0700 and a missing database file 0600 before SQLite opens
 * it. SQLite creates -wal and -shm later with the mode of the database file, so they
 * follow; the process umask can only take bits away from these modes, never add any.
 */
export function createPrivateDatabaseFile(file: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  closeSync(openSync(file, 'a', 0o600));
}

/**
 * Takes group and other access away from each database file that has it: files from an
 * earlier version (0644), or a -wal left by one. Run after opening and after the first
 * write, when SQLite has created the -wal and -shm. A file dms may not chmod (another
 * owner) goes to `warn`: the operator chose that layout, and refusing to start would not fix it.
 */
export function restrictDatabaseFiles(file: string, warn: (message: string) => void): void {
  for (const path of databaseFiles(file)) {
    const mode = modeOf(path);
    if (mode === undefined || (mode & 0o077) === 0) continue;
    try {
      chmodSync(path, mode & 0o700);
    } catch (error) {
      warn(`${path} is readable by others (mode ${mode.toString(8)}) and cannot be restricted: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** Undefined for a file that is not there (a -wal another connection just removed). */
function modeOf(path: string): number | undefined {
  const stats = statSync(path, { throwIfNoEntry: false });
  return stats && stats.mode & 0o777;
}
