import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { DataDirInUseError } from './data-dir-in-use-error.js';

/**
 * Held by the one running service of a data dir; released when it closes or its process dies.
 * Keep it referenced while it must hold: once collected, its database is closed and the lock with it.
 */
export interface DataDirLock {
  release(): void;
}

function readPid(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * An exclusive lock on a SQLite data dir: an SQLite database of its own held in EXCLUSIVE
 * locking mode. It is an fcntl lock, so the kernel drops it when the process ends, however it
 * ends (SIGKILL included): no stale lock file to clean up. The holder's pid is written beside
 * it only to name the process in the refusal.
 */
export function lockDataDir(dataDir: string): DataDirLock {
  const pidFile = join(dataDir, 'dms.lock.pid');
  const lock = new BetterSqlite3(join(dataDir, 'dms.lock'), { timeout: 0 });
  try {
    lock.pragma('locking_mode = EXCLUSIVE');
    // A write takes the EXCLUSIVE lock; in exclusive locking mode it is kept after the commit.
    lock.exec('create table if not exists holder (pid integer); delete from holder; insert into holder values (' + String(process.pid) + ')');
  } catch (error) {
    lock.close();
    if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY')) throw new DataDirInUseError(dataDir, readPid(pidFile));
    throw error;
  }
  writeFileSync(pidFile, `${process.pid}\n`, { mode: 0o600 });
  let held = true;
  return {
    release() {
      if (!held) return;
      held = false;
      lock.close();
    },
  };
}
