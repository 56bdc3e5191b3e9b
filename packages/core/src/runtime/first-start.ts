import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { syncDirectory } from './secret-key.js';

/**
 * Present from the moment a first start begins until its database is migrated: the secret key
 * and the lock file it leaves before that are no evidence that a database ever lived here.
 */
export const firstStartMarker = 'first-start-unfinished';

/** Files only a start that went on to create a database leaves in a data dir. */
const initializedMarkers = ['secret.key', 'dms.lock'];

/** dms.sqlite is missing or holds nothing (not even SQLite's header). */
export function databaseAbsent(dataDir: string): boolean {
  const database = statSync(join(dataDir, 'dms.sqlite'), { throwIfNoEntry: false });
  return !database || database.size === 0;
}

/**
 * Which file shows that a database lived in a data dir whose dms.sqlite is missing or empty
 * (`secret.key`); undefined when the database is there, when nothing was ever started here, or
 * when the only start so far never finished (it was killed before its database was migrated:
 * starting again finishes it).
 */
export function missingDatabaseEvidence(dataDir: string): string | undefined {
  if (!databaseAbsent(dataDir) || existsSync(join(dataDir, firstStartMarker))) return undefined;
  return initializedMarkers.find((name) => existsSync(join(dataDir, name)));
}

/**
 * Written, durably, before a first start creates anything (the lock, the key, the database), so
 * a start killed at any later point is told apart from a database lost after it was made.
 */
export function beginFirstStart(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const fd = openSync(join(dataDir, firstStartMarker), 'w', 0o600);
  try {
    writeSync(fd, 'dms began its first start in this data dir and has not migrated its database yet; dms removes this file once it has\n');
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  syncDirectory(dataDir);
}

/** The database is migrated: from now on its loss is a loss. The removal is flushed with the directory. */
export function finishFirstStart(dataDir: string): void {
  if (!existsSync(join(dataDir, firstStartMarker))) return;
  rmSync(join(dataDir, firstStartMarker), { force: true });
  syncDirectory(dataDir);
}
