import { statSync } from 'node:fs';
import { stat } from 'node:fs/promises';

/**
 * Whether the path still names the database file dms opened. SQLite keeps writing to the
 * file it opened: after `rm dms.sqlite*` (or a copy over it) every write would be
 * acknowledged into a file no one can open again. Looked at on a timer and before /readyz,
 * with an asynchronous stat: never a synchronous one on a request's path.
 */
export interface FileIdentityWatch {
  /** Why the path no longer names the open file; undefined while it does. Costs nothing. */
  lost(): string | undefined;
  /** Looks now (a stat off the event loop) and answers as `lost()`. */
  check(): Promise<string | undefined>;
  stop(): void;
}

export interface FileIdentityOptions {
  intervalMs?: number;
  /** Called once, when the file is first found gone or replaced. */
  onLost(reason: string): void;
}

export function watchFileIdentity(file: string, options: FileIdentityOptions): FileIdentityWatch {
  // Right after SQLite opened it: the file it holds is the one the path names now.
  const opened = statSync(file);
  let reason: string | undefined;
  const lose = (why: string) => {
    if (reason !== undefined) return;
    reason = why;
    options.onLost(why);
  };
  const check = async () => {
    if (reason !== undefined) return reason;
    try {
      const now = await stat(file);
      if (now.ino !== opened.ino || now.dev !== opened.dev) lose(`the database file ${file} was replaced by another file while dms had it open`);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') lose(`the database file ${file} was deleted while dms had it open`);
      // Another error (EACCES on the dir, EIO) says nothing about which file the path names.
    }
    return reason;
  };
  const timer = setInterval(() => void check(), options.intervalMs ?? 1000);
  timer.unref();
  return { lost: () => reason, check, stop: () => clearInterval(timer) };
}
