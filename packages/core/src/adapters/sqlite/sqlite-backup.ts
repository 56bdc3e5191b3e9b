import { closeSync, fchmodSync, fsyncSync, mkdtempSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
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
 * The copy is written beside the destination (createPrivatePartial), checked (quick_check),
 * switched out of WAL mode so it is one self-contained file, flushed, and renamed over the
 * destination: an earlier backup of that name stays whole until the new one is.
 */
export async function backupSqliteFile(source: string, destination: string): Promise<SqliteBackupResult> {
  const started = performance.now();
  // A reader waits for a moment SQLite needs the -shm alone (a WAL recovery); never for a writer.
  const database = new BetterSqlite3(source, { readonly: true, fileMustExist: true, timeout: 5000 });
  let snapshotNotBefore = Date.now();
  let scratch: string | undefined;
  try {
    scratch = createPrivatePartial(destination);
    const partial = join(scratch, partialName);
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
  } finally {
    if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
    database.close();
  }
}

const partialName = 'backup.sqlite';

/**
 * A directory of the destination's (a rename into place never crosses file systems) that only
 * this user can enter, with an empty 0600 file in it for the copy; resolves the directory.
 * The copy holds every row, password hashes and sealed secrets included, and the destination's
 * directory may be shared (/tmp): a name another user can predict there, planted beforehand as a
 * readable file or a symlink, would be written through. mkdtemp makes a random name exclusively
 * (0700), so the copy and the side files SQLite names after it (-journal, -wal) live where nobody
 * else can plant anything; the file is created exclusively too ('wx'), and its mode is set on
 * the open descriptor before a byte is written, whatever the umask.
 */
function createPrivatePartial(destination: string): string {
  const scratch = mkdtempSync(join(dirname(destination), `.${basename(destination)}.partial-`));
  try {
    const fd = openSync(join(scratch, partialName), 'wx', 0o600);
    try {
      fchmodSync(fd, 0o600);
    } finally {
      closeSync(fd);
    }
    return scratch;
  } catch (error) {
    rmSync(scratch, { recursive: true, force: true });
    throw error;
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
