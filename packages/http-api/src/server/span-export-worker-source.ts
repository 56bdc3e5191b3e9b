/**
 * Body of the trace export worker, plain JavaScript for `new Worker(src, { eval: true })` (as the
 * core's workers), so that it runs the same from TypeScript sources and the built dist. It starts
 * the OpenTelemetry SDK as `dms serve` does (the OTEL_* variables choose the exporter): its span,
 * batching and export run here, off the event loop
 * (docs/decisions/194-request-spans-exported-off-the-loop.md). It is posted batches of request
 * span records (request-span.ts) two ways:
 * - `{ spans: records }`: each replayed into the SDK with the record's ids, times, parent,
 *   attributes, events, links and status. Every record was sampled already, so the SDK here
 *   samples all.
 * - `{ protobuf: [bytes…], spans: n }` (workerData.otlpProtobuf: the exporter is OTLP over HTTP
 *   with protobuf): n records serialized on the event loop as OTLP requests under this SDK's
 *   resource, which the worker tells first as `{ resource: attributes }`, and batched there as the
 *   SDK's batch processor batches (OTEL_BSP_MAX_EXPORT_BATCH_SIZE spans or OTEL_BSP_SCHEDULE_DELAY
 *   ms). Each is sent as it comes by OpenTelemetry's OTLP/HTTP exporter parts
 *   (docs/decisions/198-request-spans-serialized-on-the-loop.md).
 * Both are answered `{ taken: n }`, once for all the batches taken in one turn of the worker's
 * loop. `'shutdown'` exports what is left, stops the SDK and answers `'stopped'`.
 * workerData.modules holds the resolved paths of the OpenTelemetry packages,
 * workerData.sdkSettings the options the event loop's SDK has too. The thread asks for the lowest
 * CPU priority first (Linux: a thread's own nice value; elsewhere it keeps the process's):
 * exporting waits while serving needs the CPU (docs/decisions/195-trace-export-yields-the-cpu.md).
 */
export const spanExportWorkerSource = `
const { parentPort, workerData } = require('node:worker_threads');
// Threads inherit their creator's priority: libuv's pool, which the whole process shares, is made
// by the first thread that queues work on it. An fs call first makes sure it exists, born at the
// process's priority; only then does this thread lower its own.
require('node:fs').access('/', () => {
  try {
    const threadId = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
    require('node:os').setPriority(threadId, 19);
  } catch {}
});
const { modules } = workerData;
const api = require(modules.api);
const { NodeSDK } = require(modules.sdkNode);
const { AlwaysOnSampler } = require(modules.sdkTrace);
let next;
const sdk = new NodeSDK({
  ...workerData.sdkSettings,
  sampler: new AlwaysOnSampler(),
  idGenerator: { generateTraceId: () => next.traceId, generateSpanId: () => next.spanId },
});
sdk.start();
const tracer = api.trace.getTracer('dms');
const sampled = api.TraceFlags.SAMPLED;
function replay(record) {
  next = record;
  let parent = api.ROOT_CONTEXT;
  if (record.parent) {
    const traceState = record.traceState ? api.createTraceState(record.traceState) : undefined;
    parent = api.trace.setSpanContext(parent, {
      traceId: record.traceId, spanId: record.parent.spanId, traceFlags: sampled, isRemote: record.parent.isRemote,
      ...(traceState ? { traceState } : {}),
    });
  }
  const links = record.links.map((link) => ({ context: { traceId: link.traceId, spanId: link.spanId, traceFlags: sampled }, ...(link.attributes ? { attributes: link.attributes } : {}) }));
  const span = tracer.startSpan(record.name, { kind: record.kind, attributes: record.attributes, links, startTime: record.startTime }, parent);
  for (const event of record.events) span.addEvent(event.name, event.attributes || {}, event.time);
  span.setStatus(record.status);
  span.end(record.endTime);
}
const serialized = workerData.otlpProtobuf ? otlpProtobufSender() : undefined;

/** Sends each OTLP protobuf request as it comes, as the SDK's exporter would: the event loop batched it. */
function otlpProtobufSender() {
  const { ProtobufTraceSerializer, TraceExporterMetricsHelper } = require(modules.transformer);
  const { OTLPExporterBase } = require(modules.exporterBase);
  const { convertLegacyHttpOptions, createOtlpHttpExportDelegate } = require(modules.exporterBaseHttp);
  // The resource this SDK made of the OTEL_* variables, read off a span it never ends.
  next = { traceId: '0'.repeat(31) + '1', spanId: '0'.repeat(15) + '1' };
  const resource = tracer.startSpan('resource').resource;
  Promise.resolve(resource.waitForAsyncAttributes?.()).then(() => parentPort.postMessage({ resource: resource.attributes }));
  const exporter = new OTLPExporterBase(
    createOtlpHttpExportDelegate(
      convertLegacyHttpOptions({}, 'TRACES', 'v1/traces', { 'Content-Type': 'application/x-protobuf' }),
      {
        // One request as it came is sent as it is: joining copies.
        serializeRequest: (request) => (request.protobuf.length === 1 ? request.protobuf[0] : Buffer.concat(request.protobuf)),
        deserializeResponse: (data) => ProtobufTraceSerializer.deserializeResponse(data),
      },
      'otlp_http_span_exporter',
      { ...TraceExporterMetricsHelper, countItems: (request) => request.spans },
      undefined,
    ),
  );
  const sending = new Set();
  return {
    take(message) {
      // A failed export is dropped, as the SDK's batch processor drops it.
      const sent = new Promise((resolve) => exporter.export(message, resolve));
      sending.add(sent);
      sent.then(() => sending.delete(sent));
    },
    async shutdown() {
      await Promise.all(sending);
      await exporter.shutdown();
    },
  };
}

let taken = 0;
let answer;
parentPort.on('message', (message) => {
  if (message === 'shutdown') {
    Promise.resolve(serialized?.shutdown()).then(() => sdk.shutdown()).catch(() => {}).then(() => parentPort.postMessage('stopped'));
    return;
  }
  if (message.protobuf) {
    serialized.take(message);
    taken += message.spans;
  } else {
    for (const record of message.spans) replay(record);
    taken += message.spans.length;
  }
  answer ??= setImmediate(() => {
    answer = undefined;
    parentPort.postMessage({ taken });
    taken = 0;
  });
});
`;
