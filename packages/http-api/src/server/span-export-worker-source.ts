/**
 * Body of the trace export worker, plain JavaScript for `new Worker(src, { eval: true })` (as the
 * core's workers), so that it runs the same from TypeScript sources and the built dist. It starts
 * the OpenTelemetry SDK as `dms serve` does (the OTEL_* variables choose the exporter) and replays
 * each request span record it is posted (request-span.ts) into it, with the record's ids, times,
 * parent, attributes, events, links and status: the SDK's span, batching and export run here, off
 * the event loop (docs/decisions/194-request-spans-exported-off-the-loop.md). Every record was
 * sampled already, so the SDK here samples all. workerData.modules holds the resolved paths of
 * the OpenTelemetry packages, workerData.sdkSettings the options the event loop's SDK has too.
 * The thread asks for the lowest CPU priority first (Linux: a thread's own nice value; elsewhere
 * it keeps the process's): exporting waits while serving needs the CPU
 * (docs/decisions/195-trace-export-yields-the-cpu.md).
 * Protocol: `{ spans }`, records to replay, answered `{ replayed }` (how many), once for all the
 * batches replayed in one turn of the worker's loop; `'shutdown'` exports what is left, stops the
 * SDK and answers `'stopped'`.
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
const api = require(workerData.modules.api);
const { NodeSDK } = require(workerData.modules.sdkNode);
const { AlwaysOnSampler } = require(workerData.modules.sdkTrace);
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
let replayed = 0;
let answer;
parentPort.on('message', (message) => {
  if (message === 'shutdown') {
    sdk.shutdown().catch(() => {}).then(() => parentPort.postMessage('stopped'));
    return;
  }
  for (const record of message.spans) replay(record);
  replayed += message.spans.length;
  answer ??= setImmediate(() => {
    answer = undefined;
    parentPort.postMessage({ replayed });
    replayed = 0;
  });
});
`;
