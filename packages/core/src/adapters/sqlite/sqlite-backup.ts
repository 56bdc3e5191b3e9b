import { closeSync, fsyncSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { createPrivateDatabaseFile } from './sqlite-file-modes.js';
import { integrityProblems } from './sqlite-integrity.js';

export interface SqliteBackupResult {
  /** Where the copy is: the destination asked for. */
  file: string;
  bytes: number;
  pages: number;
  /**
   * The wall-clock instant (ms since the epoch) recorded just before the step that copied the
   * database began its read transaction: every write committed before it is in the copy.
   */
  snapshotNotBefore: number;
  durationMs: number;
}

/** Pages per backup step: all of them, so the copy is read under one read transaction. */
const allPages = 0x7fffffff;

/**
 * A consistent copy of a SQLite database that another process (a running `dms serve`) keeps
 * writing: SQLite's online backup API over a separate read-only connection. In WAL mode a
 * reader never blocks the writer, so the service only shares the disk and CPU with it.
 *
 * The whole file is copied in one step: a step of a few pages lets the service write between
 * steps, and SQLite restarts a backup whose source another process changed, so under steady
 * writes a stepped backup would never end. One step holds one read snapshot instead; the
 * service's -wal grows meanwhile and is checkpointed after.
 *
 * The copy is written beside the destination, checked (quick_check), switched out of WAL mode
 * so it is one self-contained file, flushed, and renamed over the destination: an earlier
 * backup of that name stays whole until the new one is.
 */
export async function backupSqliteFile(source: string, destination: string): Promise<SqliteBackupResult> {
  const started = performance.now();
  const partial = `${destination}.partial-${process.pid}`;
  // A reader waits for a moment SQLite needs the -shm alone (a WAL recovery); never for a writer.
  const database = new BetterSqlite3(source, { readonly: true, fileMustExist: true, timeout: 5000 });
  let snapshotNotBefore = Date.now();
  try {
    // Owner only, before a byte is written: the copy holds every row, sealed secrets included.
    createPrivateDatabaseFile(partial);
    const progress = await database.backup(partial, {
      progress: () => {
        // Called between steps: the next step starts its read transaction after this instant.
        snapshotNotBefore = Date.now();
        return allPages;
      },
    });
    const copy = new BetterSqlite3(partial, { fileMustExist: true });
    try {
      copy.pragma('journal_mode = DELETE');
      const problems = integrityProblems(copy, 'quick');
      if (problems.length > 0) throw new Error(`the copy failed SQLite's quick_check: ${problems.slice(0, 3).join('; ')}`);
    } finally {
      copy.close();
    }
    syncFile(partial);
    renameSync(partial, destination);
    syncFile(dirname(destination));
    return {
      file: destination,
      bytes: statSync(destination).size,
      pages: progress.totalPages,
      snapshotNotBefore,
      durationMs: performance.now() - started,
    };
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  } finally {
    database.close();
  }
}

/** fsync of a file or a directory (the name of a renamed file lives in its directory). */
export function syncFile(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
