import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { RequestSpanRecord } from './request-span.js';
import { spanExportWorkerSource } from './span-export-worker-source.js';
import type { SdkSettings, TracingEnv } from './tracing.js';

/** Where sampled request spans go: batched on the event loop, exported by the SDK in a worker. */
export interface SpanExportWorker {
  ship(record: RequestSpanRecord): void;
  /** Records dropped so far because the worker was `maxRecordsBehind` records behind. */
  dropped(): number;
  /** Posts what is batched, has the worker export what it holds and stop; then ends it. */
  shutdown(): Promise<void>;
}

/**
 * Records posted at once, at most, and how long the first of a batch waits for the rest: a few
 * milliseconds, well within the time between two young-generation collections under load (about
 * 20 ms). A record held across two of them would be promoted to the old generation with
 * everything it holds, and only a full collection would free it
 * (docs/decisions/197-request-contexts-without-maps.md).
 */
const batchSize = 64;
const batchWaitMs = 5;
/**
 * Records posted and not yet replayed by the worker, at most: the queue the SDK's batch processor
 * holds by default. Beyond it the worker, which runs at the lowest priority, is behind (the CPU is
 * busy serving), and a batch is dropped rather than queued without bound.
 */
export const maxRecordsBehind = 2048;

/**
 * The trace export worker (span-export-worker-source.ts), its SDK started with `sdkSettings`, and
 * given the OTEL_* variables of `env` as its whole environment (the SDK there reads its exporter's
 * settings from them, and needs nothing else the service holds). A batch costs the event loop one
 * structured clone. The worker runs at the lowest CPU priority
 * (docs/decisions/195-trace-export-yields-the-cpu.md): when it falls `maxRecordsBehind` records
 * behind, batches are dropped and `onFirstDrop` is told the first time. If the worker fails, `onError`
 * is told once and records are dropped from then on, as an exporter that cannot reach its
 * collector drops spans: tracing never stops the service.
 */
export function startSpanExportWorker(
  env: TracingEnv,
  sdkSettings: SdkSettings,
  { onError, onFirstDrop }: { onError: (error: unknown) => void; onFirstDrop: () => void },
): SpanExportWorker {
  const resolve = createRequire(import.meta.url).resolve;
  const worker = new Worker(spanExportWorkerSource, {
    eval: true,
    env: Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[0].startsWith('OTEL_') && entry[1] !== undefined)),
    workerData: {
      modules: { api: resolve('@opentelemetry/api'), sdkNode: resolve('@opentelemetry/sdk-node'), sdkTrace: resolve('@opentelemetry/sdk-trace') },
      sdkSettings,
    },
  });
  worker.unref();
  let failed = false;
  const exited = new Promise<void>((resolveExit) => worker.once('exit', () => resolveExit()));
  worker.once('error', (error) => {
    failed = true;
    onError(error);
  });
  let recordsBehind = 0;
  let dropped = 0;
  worker.on('message', (message: unknown) => {
    if (typeof message === 'object' && message !== null && 'replayed' in message) recordsBehind -= Number(message.replayed);
  });
  let batch: RequestSpanRecord[] = [];
  let timer: NodeJS.Timeout | undefined;
  const post = () => {
    clearTimeout(timer);
    timer = undefined;
    if (batch.length === 0 || failed) return;
    if (recordsBehind + batch.length > maxRecordsBehind) {
      if (dropped === 0) onFirstDrop();
      dropped += batch.length;
    } else {
      worker.postMessage({ spans: batch });
      recordsBehind += batch.length;
    }
    batch = [];
  };
  let stopping: Promise<void> | undefined;
  return {
    ship(record) {
      if (failed || stopping) return;
      batch.push(record);
      if (batch.length >= batchSize) post();
      else timer ??= setTimeout(post, batchWaitMs).unref();
    },
    dropped: () => dropped,
    shutdown() {
      stopping ??= (async () => {
        post();
        if (!failed) {
          const stopped = new Promise<void>((resolveStop) => worker.on('message', (message) => message === 'stopped' && resolveStop()));
          worker.postMessage('shutdown');
          await Promise.race([stopped, exited]);
        }
        await worker.terminate();
      })();
      return stopping;
    },
  };
}
