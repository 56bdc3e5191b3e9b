import { availableParallelism } from 'node:os';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { getSystemErrorName } from 'node:util';
import type { NativeWalkEnd, NativeWalkHandle, NativeWalker } from '@dms/native-walk';
import { DriverError } from '../../ports/share-driver.js';
import type { FoldingScanAnalyticsSink, ScanProgress, ScanResult } from '../../ports/share-driver.js';
import { localFsMessage } from './confine-path.js';
import { absorbFoldedBatch } from './walk-batch.js';
import type { FoldedWalkBatch } from './walk-batch.js';

export type NativeWalkerLoad = { walker: NativeWalker } | { walker: undefined; reason: string };

let loading: Promise<NativeWalkerLoad> | undefined;

/**
 * The C walker of @dms/native-walk, loaded once. It is an optional dependency built at install
 * time where a C toolchain is present; absent or unbuilt, this answers why, and scans use the
 * JavaScript walkers.
 */
export function loadNativeWalker(): Promise<NativeWalkerLoad> {
  loading ??= import('@dms/native-walk').then(
    (module) => module.loadNativeWalker(),
    (error: unknown) => ({ walker: undefined, reason: `@dms/native-walk is not installed (${error instanceof Error ? error.message : String(error)})` }),
  );
  return loading;
}

export interface NativeWalkOptions {
  signal: AbortSignal;
  onProgress(progress: ScanProgress): void;
  /** Threads walking in parallel; defaults to the CPU count, at most 4. */
  threads?: number;
  /** How often progress is reported at most. */
  progressIntervalMs?: number;
  /** Takes the batches the C threads folded; absent, they count totals only. */
  analytics?: FoldingScanAnalyticsSink;
}

/** The walk's first error as the JavaScript walkers word it, with the share-relative path. */
function errorOf(end: Pick<NativeWalkEnd, 'errno' | 'message' | 'path'>): DriverError {
  const code = getSystemErrorName(-end.errno);
  const shown = end.path === '/' ? '.' : end.path.slice(1);
  return new DriverError(localFsMessage(Object.assign(new Error(`${code}: ${end.message}`), { code }), shown));
}

/**
 * Counts regular files under `root` (confined and real) as walkTree does, in C threads (see
 * packages/native-walk): the root is opened here, following it as `find -H` does, and every
 * directory below it is opened relative to its parent's descriptor without following symlinks.
 * Files with several links come back one by one and count once; the rest arrive folded.
 * Settles only after the C threads have ended and closed every descriptor they opened.
 */
export async function nativeWalkTree(root: string, walker: NativeWalker, options: NativeWalkOptions): Promise<ScanResult> {
  options.signal.throwIfAborted();
  let directory: FileHandle;
  try {
    directory = await open(root, constants.O_RDONLY | (constants.O_DIRECTORY ?? 0));
  } catch (error) {
    throw new DriverError(localFsMessage(error, '.'));
  }
  try {
    return await walkFrom(directory.fd, walker, options);
  } finally {
    await directory.close();
  }
}

function walkFrom(fd: number, walker: NativeWalker, options: NativeWalkOptions): Promise<ScanResult> {
  const threads = Math.max(1, Math.min(walker.maxThreads, options.threads ?? availableParallelism()));
  const interval = options.progressIntervalMs ?? 250;
  const sink = options.analytics;
  return new Promise<ScanResult>((resolve, reject) => {
    const totals: ScanProgress = { file_count: 0, file_size_sum: 0, directories: 0 };
    const seenInodes = new Set<string>();
    let failure: { error: unknown } | undefined;
    let lastProgress = performance.now();
    let handle: NativeWalkHandle | undefined;
    const stop = () => {
      if (handle !== undefined) walker.abort(handle);
    };
    const onMessage = (batch: unknown, end: NativeWalkEnd | null) => {
      if (end === null) {
        if (failure !== undefined) return;
        try {
          absorbFoldedBatch(batch as FoldedWalkBatch, totals, seenInodes, sink);
          const now = performance.now();
          if (now - lastProgress >= interval) {
            lastProgress = now;
            options.onProgress({ ...totals });
          }
        } catch (error) {
          // A sink or progress callback that throws ends the walk with its error.
          failure = { error };
          stop();
        }
        return;
      }
      options.signal.removeEventListener('abort', stop);
      if (failure !== undefined) reject(failure.error);
      else if (options.signal.aborted) reject(options.signal.reason);
      else if (end.errno !== 0) reject(errorOf(end));
      else resolve({ file_count: totals.file_count, file_size_sum: totals.file_size_sum });
    };
    try {
      handle = walker.start(fd, threads, sink?.foldPlan ?? null, onMessage);
    } catch (error) {
      const errno = (error as { errno?: unknown }).errno;
      reject(typeof errno === 'number' ? errorOf({ errno, message: (error as Error).message, path: '/' }) : error);
      return;
    }
    options.signal.addEventListener('abort', stop, { once: true });
    if (options.signal.aborted) stop();
  });
}
