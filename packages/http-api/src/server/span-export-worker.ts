import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Attributes } from '@opentelemetry/api';
import { OtlpSpanBuffer } from './otlp-span-buffer.js';
import type { RequestSpanRecord } from './request-span.js';
import { spanExportWorkerSource } from './span-export-worker-source.js';
import type { SdkSettings, TracingEnv } from './tracing.js';

/** Where sampled request spans go: batched on the event loop, exported from a worker. */
export interface SpanExportWorker {
  ship(record: RequestSpanRecord): void;
  /**
   * Settles once batches go as OTLP protobuf, when the exporter is OTLP over HTTP with protobuf
   * and the worker has told its SDK's resource; at once for any other exporter; when the worker fails.
   */
  readonly serializing: Promise<void>;
  /** Records dropped so far because the worker was `maxRecordsBehind` records behind. */
  dropped(): number;
  /** Posts what is batched, has the worker export what it holds and stop; then ends it. */
  shutdown(): Promise<void>;
}

/**
 * Records posted as records (any exporter but OTLP/HTTP with protobuf, or before the worker has
 * told its resource), batched at once, at most, and how long the first of a batch waits for the rest: a few
 * milliseconds, well within the time between two young-generation collections under load (about
 * 20 ms). A record held across two of them would be promoted to the old generation with
 * everything it holds, and only a full collection would free it
 * (docs/decisions/197-request-contexts-without-maps.md).
 */
const batchSize = 64;
const batchWaitMs = 5;
/**
 * Records posted and not yet taken by the worker, at most: the queue the SDK's batch processor
 * holds by default. Beyond it the worker, which runs at the lowest priority, is behind (the CPU is
 * busy serving), and a batch is dropped rather than queued without bound.
 */
export const maxRecordsBehind = 2048;

/**
 * Over OTLP/HTTP with protobuf, spans written and not yet posted, at most, and how long the first
 * of them waits for the rest: the SDK's batch processor's OTEL_BSP_MAX_EXPORT_BATCH_SIZE (512,
 * at most `maxRecordsBehind`) and OTEL_BSP_SCHEDULE_DELAY (5,000 ms). Each post is one export:
 * posting wakes the worker, so it is done in bulk (docs/decisions/199-serialized-spans-posted-in-bulk.md),
 * and the worker sends it as it comes, without copying it into a larger one. Written bytes hold
 * no objects for the collector to trace, so they can wait as long as the SDK's spans would.
 */
export function exportBatching(env: TracingEnv): { spans: number; waitMs: number } {
  const number = (name: string) => {
    const value = env[name]?.trim();
    return value ? Number(value) : NaN;
  };
  const spans = number('OTEL_BSP_MAX_EXPORT_BATCH_SIZE');
  const waitMs = number('OTEL_BSP_SCHEDULE_DELAY');
  return {
    spans: Number.isInteger(spans) && spans > 0 ? Math.min(spans, maxRecordsBehind) : 512,
    waitMs: Number.isFinite(waitMs) && waitMs >= 0 ? waitMs : 5_000,
  };
}

/**
 * Whether the exporter the variables name is OTLP over HTTP with protobuf, the SDK's default
 * (OTEL_TRACES_EXPORTER unset or `otlp`; OTEL_EXPORTER_OTLP_[TRACES_]PROTOCOL unset or `http/protobuf`).
 */
export function exportsOtlpProtobufOverHttp(env: TracingEnv): boolean {
  const named = (name: string) => {
    const value = env[name]?.trim();
    return value === '' ? undefined : value;
  };
  const exporters = (named('OTEL_TRACES_EXPORTER') ?? 'otlp').split(',').map((exporter) => exporter.trim());
  const protocol = named('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') ?? named('OTEL_EXPORTER_OTLP_PROTOCOL') ?? 'http/protobuf';
  return exporters.length === 1 && exporters[0] === 'otlp' && protocol === 'http/protobuf';
}

/**
 * The trace export worker (span-export-worker-source.ts), its SDK started with `sdkSettings`, and
 * given the OTEL_* variables of `env` as its whole environment (the SDK there reads its exporter's
 * settings from them, and needs nothing else the service holds). Over OTLP/HTTP with protobuf, a
 * span is written here as it ends, under the resource the worker's SDK made
 * (docs/decisions/200-request-spans-encoded-as-they-end.md), and the request they make is handed
 * to the worker, which only sends it (docs/decisions/198-request-spans-serialized-on-the-loop.md),
 * in the batches the SDK's batch processor would make (docs/decisions/199-serialized-spans-posted-in-bulk.md); until the worker
 * has told that resource, and for any other exporter, a batch costs one structured clone and the
 * worker replays it into its SDK. The worker runs at the lowest CPU priority
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
  const otlpProtobuf = exportsOtlpProtobufOverHttp(env);
  const worker = new Worker(spanExportWorkerSource, {
    eval: true,
    env: Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[0].startsWith('OTEL_') && entry[1] !== undefined)),
    workerData: {
      modules: {
        api: resolve('@opentelemetry/api'),
        sdkNode: resolve('@opentelemetry/sdk-node'),
        sdkTrace: resolve('@opentelemetry/sdk-trace'),
        transformer: resolve('@opentelemetry/otlp-transformer'),
        exporterBase: resolve('@opentelemetry/otlp-exporter-base'),
        exporterBaseHttp: resolve('@opentelemetry/otlp-exporter-base/node-http'),
      },
      sdkSettings,
      otlpProtobuf,
    },
  });
  worker.unref();
  let failed = false;
  /** Over OTLP/HTTP with protobuf, once the worker has told its SDK's resource: where spans are written as they end. */
  let spans: OtlpSpanBuffer | undefined;
  let toldResource = () => {};
  const serializing = otlpProtobuf ? new Promise<void>((resolveTold) => (toldResource = resolveTold)) : Promise.resolve();
  const exited = new Promise<void>((resolveExit) => worker.once('exit', () => resolveExit()));
  worker.once('error', (error) => {
    failed = true;
    toldResource();
    onError(error);
  });
  let recordsBehind = 0;
  let dropped = 0;
  worker.on('message', (message: unknown) => {
    if (typeof message !== 'object' || message === null) return;
    if ('taken' in message) recordsBehind -= Number(message.taken);
    if ('resource' in message && otlpProtobuf) {
      spans = new OtlpSpanBuffer(message.resource as Attributes);
      toldResource();
    }
  });
  /** Room for `count` more records within the bound; past it they are dropped, told the first time. */
  const room = (count: number) => {
    if (recordsBehind + count <= maxRecordsBehind) return true;
    if (dropped === 0) onFirstDrop();
    dropped += count;
    return false;
  };
  const posting = exportBatching(env);
  let postTimer: NodeJS.Timeout | undefined;
  const postHeld = () => {
    clearTimeout(postTimer);
    postTimer = undefined;
    const count = spans?.spans ?? 0;
    const request = spans?.take();
    if (request === undefined || failed) return;
    // Handed over, not copied: the buffer was made for this request alone.
    worker.postMessage({ protobuf: [request], spans: count }, [request.buffer as ArrayBuffer]);
  };
  let batch: RequestSpanRecord[] = [];
  let timer: NodeJS.Timeout | undefined;
  const post = () => {
    clearTimeout(timer);
    timer = undefined;
    if (batch.length === 0 || failed) return;
    if (room(batch.length)) {
      worker.postMessage({ spans: batch });
      recordsBehind += batch.length;
    }
    batch = [];
  };
  /** Written into the request being filled; one the encoder refuses goes as a record, for the SDK to judge. */
  const encode = (buffer: OtlpSpanBuffer, record: RequestSpanRecord) => {
    if (!room(1)) return;
    try {
      buffer.append(record);
    } catch {
      worker.postMessage({ spans: [record] });
    }
    // Counted when written: the bound covers what waits here too.
    recordsBehind += 1;
    if (buffer.spans >= posting.spans) postHeld();
    else postTimer ??= setTimeout(postHeld, posting.waitMs).unref();
  };
  let stopping: Promise<void> | undefined;
  return {
    ship(record) {
      if (failed || stopping) return;
      if (spans !== undefined) return encode(spans, record);
      batch.push(record);
      if (batch.length >= batchSize) post();
      else timer ??= setTimeout(post, batchWaitMs).unref();
    },
    serializing,
    dropped: () => dropped,
    shutdown() {
      stopping ??= (async () => {
        post();
        postHeld();
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
