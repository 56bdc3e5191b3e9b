import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the checkpointer copies the -wal's committed pages into the file (passive: it never waits for a writer or a reader). */
export const walCheckpointEveryMs = 1000;

/** What `PRAGMA wal_checkpoint(PASSIVE)` answered: busy 1 when another checkpoint held the lock, the -wal's frames and how many are in the file now. */
export interface WalCheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

export interface WalCheckpointer {
  /** A checkpoint now, in the worker (tests; the timer runs them anyway). */
  now(): Promise<WalCheckpointResult>;
  /** Closes the worker's connection and ends it; before the service's own connection closes (that one checkpoints last). */
  close(): Promise<void>;
}

/**
 * The worker's body, plain JavaScript (run with `eval`, the same from sources, dist and
 * Electron): its own connection to the file, a passive checkpoint every `everyMs` and on
 * request. A checkpoint writes the -wal's pages into the file and fsyncs it: on the service's
 * connection SQLite runs one inside the commit that passes 1,000 pages, on the event loop,
 * a few to tens of ms on a quiet disk and more on a busy one (docs/decisions/187-…).
 */
const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true, timeout: 0 });
const checkpoint = () => db.pragma('wal_checkpoint(PASSIVE)')[0];
const timer = setInterval(() => { try { checkpoint(); } catch {} }, workerData.everyMs);
parentPort.on('message', (message) => {
  if (message === 'close') { clearInterval(timer); db.close(); parentPort.close(); return; }
  try { parentPort.postMessage({ result: checkpoint() }); } catch (error) { parentPort.postMessage({ error: String(error && error.message || error) }); }
});
`;

/**
 * Starts the checkpointer of a WAL database `file` (the caller turns its own connection's
 * autocheckpoint off once this answers). Rejects when the worker cannot start or open the
 * file: the caller keeps SQLite's own checkpoints then.
 */
export async function startWalCheckpointer(file: string, options: { everyMs?: number; onError?: (error: unknown) => void } = {}): Promise<WalCheckpointer> {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  // A small heap: it holds a connection and a timer, nothing else.
  const worker = new Worker(workerSource, {
    eval: true,
    workerData: { driver, file, everyMs: options.everyMs ?? walCheckpointEveryMs },
    resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 },
  });
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const ask = () =>
    new Promise<WalCheckpointResult>((resolve, reject) => {
      const failed = (error: unknown) => reject(error instanceof Error ? error : new Error(String(error)));
      worker.once('error', failed);
      worker.once('message', (answer: { result?: WalCheckpointResult; error?: string }) => {
        worker.off('error', failed);
        if (answer.result) resolve(answer.result);
        else failed(answer.error);
      });
      worker.postMessage('now');
    });
  // The first answer proves the worker opened the file.
  try {
    await ask();
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  worker.on('error', (error) => options.onError?.(error));
  let closing: Promise<void> | undefined;
  return {
    now: ask,
    close: () => {
      closing ??= (async () => {
        worker.postMessage('close');
        const timer = setTimeout(() => void worker.terminate(), 2000);
        await exited;
        clearTimeout(timer);
      })();
      return closing;
    },
  };
}
