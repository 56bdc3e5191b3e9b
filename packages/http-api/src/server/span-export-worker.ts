import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import type { Attributes } from '@opentelemetry/api';
import { recordsAsOtlpProtobuf } from './otlp-records.js';
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
 * Records batched at once, at most, and how long the first of a batch waits for the rest: a few
 * milliseconds, well within the time between two young-generation collections under load (about
 * 20 ms). A record held across two of them would be promoted to the old generation with
 * everything it holds, and only a full collection would free it
 * (docs/decisions/197-request-contexts-without-maps.md).
 */
const batchSize = 64;
const batchWaitMs = 5;
/**
 * Over OTLP/HTTP with protobuf, batches serialized and not yet posted, at most, in spans, and how
 * long the first of them waits for the rest: posting wakes the worker, and each post costs about
 * as much as serializing a few spans (docs/decisions/199-serialized-spans-posted-in-bulk.md). Bytes hold
 * no objects for the collector to trace, so they can wait longer than records.
 */
const postSpans = 256;
const postWaitMs = 100;
/**
 * Records posted and not yet taken by the worker, at most: the queue the SDK's batch processor
 * holds by default. Beyond it the worker, which runs at the lowest priority, is behind (the CPU is
 * busy serving), and a batch is dropped rather than queued without bound.
 */
export const maxRecordsBehind = 2048;

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
 * batch is serialized here, by OpenTelemetry's serializer under the resource the worker's SDK
 * made, and its bytes are handed to the worker, which only joins and sends them
 * (docs/decisions/198-request-spans-serialized-on-the-loop.md), several batches a post
 * (docs/decisions/199-serialized-spans-posted-in-bulk.md); until the worker has told that
 * resource, and for any other exporter, a batch costs one structured clone and the worker replays
 * it into its SDK. The worker runs at the lowest CPU priority
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
        core: resolve('@opentelemetry/core'),
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
  /** The worker's SDK's resource, once told: batches are serialized under it from then on. */
  let resource: Resource | undefined;
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
      resource = resourceFromAttributes(message.resource as Attributes);
      toldResource();
    }
  });
  /** A batch as OTLP protobuf; one the serializer refuses goes as records, for the SDK to judge. */
  const serialized = (records: RequestSpanRecord[], under: Resource) => {
    try {
      return recordsAsOtlpProtobuf(records, under);
    } catch {
      return undefined;
    }
  };
  /** Serialized batches not yet posted, and the spans they hold. */
  let held: Uint8Array[] = [];
  let heldSpans = 0;
  let postTimer: NodeJS.Timeout | undefined;
  const postHeld = () => {
    clearTimeout(postTimer);
    postTimer = undefined;
    if (held.length === 0) return;
    // Handed over, not copied (the serializer made a buffer of its own for each).
    if (!failed)
      worker.postMessage(
        { protobuf: held, spans: heldSpans },
        held.map((bytes) => bytes.buffer as ArrayBuffer),
      );
    held = [];
    heldSpans = 0;
  };
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
      const bytes = resource === undefined ? undefined : serialized(batch, resource);
      if (bytes === undefined) worker.postMessage({ spans: batch });
      else {
        held.push(bytes);
        heldSpans += batch.length;
        if (heldSpans >= postSpans) postHeld();
        else postTimer ??= setTimeout(postHeld, postWaitMs).unref();
      }
      // Counted when serialized: the bound covers what waits here too.
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
