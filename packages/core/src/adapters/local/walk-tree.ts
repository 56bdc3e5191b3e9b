import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { Worker } from 'node:worker_threads';
import { DriverError } from '../../ports/share-driver.js';
import { takesFoldedBatches } from '../../ports/share-driver.js';
import type { FoldingScanAnalyticsSink, ScanAnalyticsSink, ScanProgress, ScanResult } from '../../ports/share-driver.js';
import { localFsMessage } from './confine-path.js';
import { fileByFileSink } from './file-by-file-sink.js';
import { descriptorPath, openWalkStart } from './proc-fd.js';
import { absorbFoldedBatch } from './walk-batch.js';
import type { FoldedWalkBatch } from './walk-batch.js';
import { walkWorkerSource } from './walk-worker-source.js';

export interface WalkOptions {
  signal: AbortSignal;
  onProgress(progress: ScanProgress): void;
  /** Threads walking in parallel; defaults to the CPU count, at most 4 (the disk is the limit). */
  workers?: number;
  /** How often progress is reported at most. */
  progressIntervalMs?: number;
  /** How long a worker walks before handing work back; 0 means one directory per batch (tests). */
  batchMs?: number;
  /**
   * Told of every file and directory the walk reaches; absent, workers collect nothing for it.
   * A sink that takes folded batches (ScanAnalyticsBuilder) gets the files with one link folded
   * in the walker's threads; any other is told file by file (see fileByFileSink).
   */
  analytics?: ScanAnalyticsSink;
}

/** A worker's answer: its batch, and the directories it leaves for any idle worker. */
interface WorkerAnswer extends FoldedWalkBatch {
  pending: string[];
}

/**
 * Counts regular files under `root` (already confined and real) and sums their apparent
 * sizes, like `find -type f` with `-printf %s`: symlinks are neither followed nor counted,
 * and a file with several hard links counts once (as `du` counts it).
 * Where /proc is there, the walk starts from a descriptor opened here (see openWalkStart)
 * and enters subdirectories through checked descriptors (see walkWorkerSource).
 */
export async function walkTree(root: string, options: WalkOptions): Promise<ScanResult> {
  options.signal.throwIfAborted();
  const start = await openWalkStart(root);
  try {
    return await runWorkers(start === undefined ? root : descriptorPath(start.fd), start !== undefined, options);
  } finally {
    await start?.close();
  }
}

async function runWorkers(root: string, pinned: boolean, options: WalkOptions): Promise<ScanResult> {
  const count = options.workers ?? Math.max(1, Math.min(4, availableParallelism()));
  const interval = options.progressIntervalMs ?? 250;
  const given = options.analytics;
  const sink: FoldingScanAnalyticsSink | undefined = given === undefined || takesFoldedBatches(given) ? given : fileByFileSink(given);
  const fileByFile = sink !== given;
  const workerData = { root, pinned, batchMs: options.batchMs ?? 20, plan: sink?.foldPlan ?? null, fileByFile };
  // A walker's garbage is short-lived (entries, stats, a batch's arrays): a young generation of
  // 8 MB instead of V8's default keeps ~15 MB of RSS off each scan at the same CPU (measured).
  const resourceLimits = { maxYoungGenerationSizeMb: 8 };
  const workers = Array.from({ length: count }, () => new Worker(walkWorkerSource, { eval: true, resourceLimits, workerData }));
  const totals: ScanProgress = { file_count: 0, file_size_sum: 0, directories: 0 };
  const seenInodes = new Set<string>();
  try {
    await new Promise<void>((resolve, reject) => {
      const queue: string[] = [root];
      const idle = [...workers];
      let busy = 0;
      let lastProgress = performance.now();
      let settled = false;
      const finish = (error?: unknown) => {
        if (settled) return;
        settled = true;
        options.signal.removeEventListener('abort', onAbort);
        if (error === undefined) resolve();
        else reject(error);
      };
      const onAbort = () => finish(options.signal.reason);
      const dispatch = () => {
        while (!settled && idle.length > 0 && queue.length > 0) {
          const worker = idle.pop() as Worker;
          // Split what is queued evenly between the idle workers.
          const share = Math.ceil(queue.length / (idle.length + 1));
          busy += 1;
          worker.postMessage({ dirs: queue.splice(queue.length - share, share) });
        }
        if (busy === 0 && queue.length === 0) finish();
      };
      const onResult = (worker: Worker, result: WorkerAnswer) => {
        if (settled) return;
        busy -= 1;
        try {
          absorbFoldedBatch(result, totals, seenInodes, sink);
        } catch (error) {
          return finish(error);
        }
        if (result.error) {
          const shown = relative(root, result.error.path ?? root) || '.';
          return finish(new DriverError(localFsMessage(Object.assign(new Error(result.error.message), { code: result.error.code }), shown)));
        }
        for (const dir of result.pending) queue.push(dir);
        idle.push(worker);
        const now = performance.now();
        if (now - lastProgress >= interval) {
          lastProgress = now;
          // Reported before handing out the returned directories, so a caller that reacts
          // (tests deleting a subtree) sees a consistent point of the walk.
          try {
            options.onProgress({ ...totals });
          } catch (error) {
            return finish(error);
          }
        }
        dispatch();
      };
      options.signal.addEventListener('abort', onAbort, { once: true });
      for (const worker of workers) {
        worker.on('message', (result: WorkerAnswer) => onResult(worker, result));
        worker.on('error', (error) => finish(error));
        worker.on('exit', (code) => {
          if (code !== 0) finish(new Error(`walk worker exited with code ${code}`));
        });
      }
      dispatch();
    });
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
  return { file_count: totals.file_count, file_size_sum: totals.file_size_sum };
}
