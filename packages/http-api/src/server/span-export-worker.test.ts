import { SpanKind, SpanStatusCode, TraceFlags, createTraceState } from '@opentelemetry/api';
import { readFileSync, readdirSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { attribute, otlpReceiver } from '../testing/otlp-receiver.js';
import { RecordedRequestSpan, type RequestSpanRecord } from './request-span.js';
import { exportBatching, maxRecordsBehind, startSpanExportWorker, type SpanExportWorker } from './span-export-worker.js';
import type { SdkSettings } from './tracing.js';

const receivers: Awaited<ReturnType<typeof otlpReceiver>>[] = [];
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await new Promise((resolve) => receiver.server.close(resolve));
});

const sdkSettings = { metricReaders: [], logRecordProcessors: [], instrumentations: [] } satisfies SdkSettings;

/** How far an exported time (OTLP/JSON: nanoseconds since the epoch) is from epoch milliseconds with a fraction, in µs. */
const microsApart = (unixNano: string | undefined, ms: number) => Math.abs(Number(BigInt(unixNano ?? '0') - BigInt(Math.round(ms * 1e6))) / 1000);

/** One ended request span, `GET /`, shipped to `worker`. */
function shipSpan(worker: SpanExportWorker, spanId: string): RequestSpanRecord {
  let shipped: RequestSpanRecord | undefined;
  new RecordedRequestSpan('GET /', SpanKind.SERVER, {}, { traceId: '3'.repeat(32), spanId, traceFlags: TraceFlags.SAMPLED }, undefined, (record) => {
    shipped = record;
    worker.ship(record);
  }).end();
  return shipped!;
}

/** Two ended request spans shipped to `worker`: a root with every kind of detail, and a child of a remote parent. */
function shipTwoSpans(worker: SpanExportWorker): RequestSpanRecord[] {
  const shipped: RequestSpanRecord[] = [];
  const ship = (record: RequestSpanRecord) => {
    shipped.push(record);
    worker.ship(record);
  };
  const root = new RecordedRequestSpan(
    'PUT /shares/:id',
    SpanKind.SERVER,
    { 'http.request.method': 'PUT' },
    { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: TraceFlags.SAMPLED },
    undefined,
    ship,
  );
  root.setAttributes({ 'url.path': '/shares/7', 'http.response.status_code': 500 });
  root.addEvent('retry', { attempt: 2 });
  root.addLink({ context: { traceId: 'c'.repeat(32), spanId: 'd'.repeat(16), traceFlags: TraceFlags.SAMPLED } });
  root.setStatus({ code: SpanStatusCode.ERROR, message: 'the NAS did not answer' });
  root.end();
  const child = new RecordedRequestSpan(
    'GET /shares',
    SpanKind.SERVER,
    {},
    { traceId: 'e'.repeat(32), spanId: 'f'.repeat(16), traceFlags: TraceFlags.SAMPLED, traceState: createTraceState('vendor=abc') },
    { traceId: 'e'.repeat(32), spanId: '1'.repeat(16), traceFlags: TraceFlags.SAMPLED, isRemote: true },
    ship,
  );
  child.end();
  return shipped;
}

describe('the trace export worker', () => {
  it.each([
    { protocol: 'http/json', way: "replayed into the worker's SDK" },
    { protocol: 'http/protobuf', way: 'serialized on the event loop, joined and sent by the worker' },
  ])(
    'exports each record over OTLP/HTTP ($protocol: $way) with its ids, parent, times, attributes, events, links and status; a stop exports what is batched',
    async ({ protocol }) => {
      const receiver = await otlpReceiver();
      receivers.push(receiver);
      const errors: unknown[] = [];
      const worker = startSpanExportWorker(
        { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: protocol, OTEL_SERVICE_NAME: 'export-worker-test' },
        sdkSettings,
        { onError: (error) => errors.push(error), onFirstDrop: () => errors.push('dropped') },
      );
      // Shipped before the worker has told its resource: replayed into its SDK whatever the exporter.
      const early = shipSpan(worker, '2'.repeat(16));
      await worker.serializing;
      const shipped = shipTwoSpans(worker);
      // Both are still in the event loop's batch (it waits for more): the stop sends and exports them.
      await worker.shutdown();
      expect(errors).toEqual([]);

      const [first, second, third] = ['b'.repeat(16), 'f'.repeat(16), early.spanId].map((spanId) => receiver.spans.find((span) => span.spanId === spanId)!);
      expect(first).toMatchObject({ traceId: 'a'.repeat(32), name: 'PUT /shares/:id', kind: 2, status: { code: 2, message: 'the NAS did not answer' } });
      expect(first!.parentSpanId ?? '').toBe('');
      expect(attribute(first!, 'url.path')).toBe('/shares/7');
      expect(attribute(first!, 'http.response.status_code')).toBe(500);
      expect(first!.events?.map((event) => [event.name, attribute(event, 'attempt')])).toEqual([['retry', 2]]);
      expect(first!.links?.map((link) => [link.traceId, link.spanId])).toEqual([['c'.repeat(32), 'd'.repeat(16)]]);
      // A double holds epoch milliseconds to a fraction of a microsecond.
      expect(microsApart(first!.startTimeUnixNano, shipped[0]!.startTime)).toBeLessThan(1);
      expect(microsApart(first!.endTimeUnixNano, shipped[0]!.endTime)).toBeLessThan(1);
      expect(second).toMatchObject({ traceId: 'e'.repeat(32), parentSpanId: '1'.repeat(16), traceState: 'vendor=abc', name: 'GET /shares' });
      expect(third).toMatchObject({ traceId: early.traceId, name: 'GET /' });
      expect([...receiver.serviceNames]).toEqual(['export-worker-test']);

      // Once stopped, a record is dropped, never thrown.
      expect(() => worker.ship(shipped[0]!)).not.toThrow();
    },
  );

  it.runIf(process.platform === 'linux')('runs at the lowest CPU priority, and only the worker’s thread does', async () => {
    const worker = startSpanExportWorker({ OTEL_TRACES_EXPORTER: 'console' }, sdkSettings, { onError: () => {}, onFirstDrop: () => {} });
    try {
      const niceOf = (tid: string) => Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);
      const niced = () => readdirSync('/proc/self/task').filter((tid) => niceOf(tid) === 19);
      await vi.waitFor(() => expect(niced()).toHaveLength(1));
      expect(niceOf(String(process.pid))).toBe(0);
    } finally {
      await worker.shutdown();
    }
  });

  it('reads the batch processor’s size and delay as the SDK does, its defaults otherwise', () => {
    expect(exportBatching({})).toEqual({ spans: 512, waitMs: 5_000 });
    expect(exportBatching({ OTEL_BSP_MAX_EXPORT_BATCH_SIZE: ' 100 ', OTEL_BSP_SCHEDULE_DELAY: '0' })).toEqual({ spans: 100, waitMs: 0 });
    // More than the queue the worker may fall behind by cannot be one batch.
    expect(exportBatching({ OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '100000' }).spans).toBe(maxRecordsBehind);
    expect(exportBatching({ OTEL_BSP_MAX_EXPORT_BATCH_SIZE: 'many', OTEL_BSP_SCHEDULE_DELAY: '-1' })).toEqual({ spans: 512, waitMs: 5_000 });
  });

  it.each(['http/json', 'http/protobuf'])(
    'drops batches, and says so once, while the worker is too far behind (%s); what it took is exported',
    async (protocol) => {
      const receiver = await otlpReceiver();
      receivers.push(receiver);
      const told: string[] = [];
      const worker = startSpanExportWorker({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: protocol }, sdkSettings, {
        onError: (error) => told.push(String(error)),
        onFirstDrop: () => told.push('dropped'),
      });
      await worker.serializing;
      // The worker answers through the event loop, which this loop holds: no record is known to be
      // taken until it ends, so the batches (64 records, full ones serialized or posted at once)
      // past the bound are dropped; serialized ones still held here count.
      const records = maxRecordsBehind + 2 * 64;
      for (let index = 0; index < records; index++) {
        new RecordedRequestSpan(
          'GET /',
          SpanKind.SERVER,
          {},
          { traceId: 'a'.repeat(32), spanId: index.toString(16).padStart(16, '0'), traceFlags: TraceFlags.SAMPLED },
          undefined,
          (record) => worker.ship(record),
        ).end();
      }
      expect(told).toEqual(['dropped']);
      expect(worker.dropped()).toBe(2 * 64);
      await worker.shutdown();
      expect(told).toEqual(['dropped']);
      const exported = new Set(receiver.spans.map((span) => span.spanId));
      expect(exported.size).toBe(maxRecordsBehind);
      expect(exported.has((maxRecordsBehind - 1).toString(16).padStart(16, '0'))).toBe(true);
      expect(exported.has(maxRecordsBehind.toString(16).padStart(16, '0'))).toBe(false);
    },
  );

  it('over protobuf, posts serialized spans in the batch processor’s batches (its size at once, the rest after its delay), each one export, without a stop', async () => {
    const receiver = await otlpReceiver();
    receivers.push(receiver);
    const errors: unknown[] = [];
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '256', OTEL_BSP_SCHEDULE_DELAY: '100' };
    const worker = startSpanExportWorker(env, sdkSettings, {
      onError: (error) => errors.push(error),
      onFirstDrop: () => errors.push('dropped'),
    });
    try {
      await worker.serializing;
      for (let index = 0; index < 300; index++) shipSpan(worker, (index + 1).toString(16).padStart(16, '0'));
      await vi.waitFor(() => expect(receiver.spans).toHaveLength(300), { timeout: 10_000 });
      // 256 posted when the 256th was written, the last 44 a tenth of a second after the first of them.
      expect(receiver.requests()).toBe(2);
      expect(new Set(receiver.spans.map((span) => span.spanId)).size).toBe(300);
      expect(errors).toEqual([]);
    } finally {
      await worker.shutdown();
    }
  });
});

describe('a recorded request span', () => {
  it('keeps the API’s contract: nothing after end, shipped once, OK final, a message only with ERROR', () => {
    const shipped: RequestSpanRecord[] = [];
    const span = new RecordedRequestSpan(
      'GET /',
      SpanKind.SERVER,
      {},
      { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: 1 },
      undefined,
      (record) => shipped.push(record),
    );
    expect(span.isRecording()).toBe(true);
    span.setStatus({ code: SpanStatusCode.OK, message: 'dropped' });
    expect(shipped).toEqual([]);
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'too late' });
    span.recordException(new TypeError('bad input'));
    span.end(new Date(0));
    span.end();
    span.setAttribute('after', 'end');
    span.updateName('renamed');
    expect(span.isRecording()).toBe(false);
    expect(shipped).toHaveLength(1);
    const [record] = shipped;
    expect(record).toMatchObject({ name: 'GET /', status: { code: SpanStatusCode.OK }, attributes: {} });
    expect(record!.status).not.toHaveProperty('message');
    expect(record!.events.map((event) => [event.name, event.attributes?.['exception.type'], event.attributes?.['exception.message']])).toEqual([
      ['exception', 'TypeError', 'bad input'],
    ]);
    // An end before the start (a clock set back) is the start.
    expect(record!.endTime).toBe(record!.startTime);
  });
});
