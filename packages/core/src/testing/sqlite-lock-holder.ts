import { spawn } from 'node:child_process';
import { once } from 'node:events';

/** Another process holding a SQLite database's write lock, as `sqlite3 dms.sqlite` does after BEGIN EXCLUSIVE. */
export interface SqliteLockHolder {
  /** Commits (nothing) and ends the process: the lock is gone when this resolves. */
  release(): Promise<void>;
}

/**
 * Starts the `sqlite3` CLI on `file` and resolves once it holds the write lock (BEGIN
 * EXCLUSIVE, then a select it answers from inside the transaction). A real second process:
 * the lock is SQLite's own, in the files, as an operator's shell or backup script takes it.
 */
export async function holdSqliteWriteLock(sqlite3: string, file: string, options: { releaseAfterMs?: number } = {}): Promise<SqliteLockHolder> {
  const child = spawn(sqlite3, [file], { stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  let errors = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
  const exited = once(child, 'exit');
  child.stdin.write(".timeout 5000\nBEGIN EXCLUSIVE;\nSELECT 'lock-held';\n");
  await new Promise<void>((resolve, reject) => {
    const check = () => {
      if (output.includes('lock-held')) return resolve();
      if (errors !== '' || child.exitCode !== null) return reject(new Error(`sqlite3 did not take the lock: ${errors}`));
      setTimeout(check, 5);
    };
    check();
  });
  // Released by the child itself: the test's own thread may be the one a lock would block.
  if (options.releaseAfterMs !== undefined) child.stdin.end(`.shell sleep ${options.releaseAfterMs / 1000}\nCOMMIT;\n.quit\n`);
  return {
    async release() {
      if (child.exitCode === null && !child.stdin.writableEnded) child.stdin.end('COMMIT;\n.quit\n');
      if (child.exitCode === null) await exited;
    },
  };
}
