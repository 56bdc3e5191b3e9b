import { ProxyTracerProvider, ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace } from '@opentelemetry/api';
import { AlwaysOffSampler, InMemorySpanExporter, SimpleSpanProcessor, TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace';
import { Hono } from 'hono';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppEnv } from '../http/env.js';
import { createLogger } from '../http/logger.js';
import { tracedRoute } from '../pipeline/trace-request.js';
import { samplerFromEnv } from './trace-sampler.js';
import type { RequestSpanRecord } from './request-span.js';
import { startTracing, type Tracing } from './tracing.js';

/** What a request's handler saw: the trace context it would hand a job, and the line it logged. */
interface Seen {
  carrier: Record<string, string>;
  line: Record<string, unknown>;
}

/**
 * The SDK started as `dms serve` starts it, its spans kept in memory instead of exported, and an app
 * whose one route is traced: its handler logs a line and takes the trace context a job it queued
 * would carry (the core's activeTraceCarrier injects the active context the same way).
 */
async function tracedApp(sampler: string, ratio?: string) {
  const exporter = new InMemorySpanExporter();
  const processor = new SimpleSpanProcessor({ exporter });
  const requestSpans: RequestSpanRecord[] = [];
  const tracing = (await startTracing(
    { OTEL_TRACES_EXPORTER: 'console', OTEL_TRACES_SAMPLER: sampler, ...(ratio === undefined ? {} : { OTEL_TRACES_SAMPLER_ARG: ratio }) },
    { spanProcessors: [processor], requestSpans: (record) => void requestSpans.push(record) },
  ))!;
  /** The SDK's spans ended so far (an ended span is exported once the resource's detectors have answered). */
  const finished = async () => {
    await processor.forceFlush();
    return exporter.getFinishedSpans();
  };
  started.push(tracing);
  const lines: string[] = [];
  const logger = createLogger('info', { write: (line: string) => void lines.push(line) }, 'json', { traced: true });
  const seen: Seen[] = [];
  const app = new Hono<AppEnv>();
  // The same handler as a read (GET) and as a write (POST).
  app.on(
    ['GET', 'POST'],
    '/shares/:id',
    tracedRoute('/shares/:id', tracing.requests, async (c) => {
      await Promise.resolve();
      const carrier: Record<string, string> = {};
      propagation.inject(context.active(), carrier);
      logger.info('handled');
      seen.push({ carrier, line: JSON.parse(lines.at(-1)!) as Record<string, unknown> });
      return c.json({ ok: true });
    }),
  );
  const send =
    (method: 'GET' | 'POST') =>
    async (headers: Record<string, string> = {}) => {
      const response = await app.request('/shares/7', { method, headers });
      expect(response.status).toBe(200);
      return seen.at(-1)!;
    };
  return { finished, get: send('GET'), post: send('POST'), requestSpans };
}

/** A job queued with `carrier`, as the job engine runs it: a span under the context the carrier names. */
function runJob(carrier: Record<string, string>): void {
  trace.getTracer('dms').startActiveSpan('share_test', {}, propagation.extract(ROOT_CONTEXT, carrier), (span) => span.end());
}

const started: Tracing[] = [];

afterEach(async () => {
  for (const tracing of started.splice(0)) await tracing.shutdown();
  vi.restoreAllMocks();
  trace.disable();
  context.disable();
  propagation.disable();
});

function traceparentOf(carrier: Record<string, string>) {
  const [, traceId, spanId, flags] = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/.exec(carrier['traceparent'] ?? '') ?? [];
  expect(traceId, `a traceparent in ${JSON.stringify(carrier)}`).toBeDefined();
  return { traceId: traceId!, spanId: spanId!, sampled: flags === '01' };
}

describe('the sampler decides before a request span is built', () => {
  it('an unsampled write makes no span; its context still carries a trace id, which its jobs continue unsampled', async () => {
    const { finished, post, requestSpans } = await tracedApp('parentbased_always_off');
    const sdkTracer = (trace.getTracerProvider() as ProxyTracerProvider).getDelegate().getTracer('dms');
    const startSpan = vi.spyOn(Object.getPrototypeOf(sdkTracer) as { startSpan: () => unknown }, 'startSpan');
    const first = await post();
    const second = await post();
    // The request path never reached the SDK's tracer.
    expect(startSpan).not.toHaveBeenCalled();
    const [one, two] = [traceparentOf(first.carrier), traceparentOf(second.carrier)];
    expect(one.sampled).toBe(false);
    expect(one.traceId).not.toBe(two.traceId);
    expect(one.traceId).not.toBe('0'.repeat(32));
    // Log lines name sampled traces only (docs/decisions/181-traces.md).
    expect(first.line).not.toHaveProperty('trace_id');
    runJob(first.carrier);
    expect(await finished()).toEqual([]);
    expect(requestSpans).toEqual([]);
  });

  it('an unsampled read runs with no trace context at all, as with tracing off; the sampler was still asked', async () => {
    const { finished, get, requestSpans } = await tracedApp('parentbased_always_off');
    const askedAbout = vi.spyOn(AlwaysOffSampler.prototype, 'shouldSample');
    const seen = await get();
    expect(askedAbout).toHaveBeenCalledTimes(1);
    // Nothing to carry to a job or to a peer, and no trace id on its lines.
    expect(seen.carrier).toEqual({});
    expect(seen.line).not.toHaveProperty('trace_id');
    expect(requestSpans).toEqual([]);
    expect(await finished()).toEqual([]);
    // A client's unsampled trace is not carried through a read either.
    expect((await get({ traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00' })).carrier).toEqual({});
  });

  it('a sampled request is a recorded span of a trace id the sampler samples; its jobs are its children', async () => {
    const { finished, get, post, requestSpans } = await tracedApp('traceidratio', '0.5');
    const ratio = new TraceIdRatioBasedSampler(0.5);
    const carried: string[] = [];
    for (let request = 0; request < 24; request += 1) carried.push(traceparentOf((await post()).carrier).traceId);
    // Each request's trace id was decided as the SDK's sampler decides it (root-trace-ids.ts).
    const sampled = carried.filter((traceId) => ratio.shouldSample(ROOT_CONTEXT, traceId).decision !== 0);
    expect(requestSpans.map((span) => span.traceId).sort()).toEqual([...sampled].sort());
    for (const span of requestSpans) {
      expect(span).toMatchObject({ name: 'POST /shares/:id', kind: SpanKind.SERVER, status: { code: SpanStatusCode.UNSET } });
      expect(span.attributes).toMatchObject({
        'http.request.method': 'POST',
        'http.route': '/shares/:id',
        'http.response.status_code': 200,
        'url.path': '/shares/7',
      });
      expect(span.endTime).toBeGreaterThanOrEqual(span.startTime);
    }

    const { carrier, line } = await (async () => {
      // A request sampled at 0.5 comes within a few tries (each a fair coin on its trace id).
      for (let attempt = 0; attempt < 64; attempt += 1) {
        // An unsampled read carries nothing; a sampled one its span.
        const seen = await get();
        if (seen.carrier['traceparent'] !== undefined) return seen;
      }
      throw new Error('no request sampled in 64');
    })();
    const { traceId, spanId } = traceparentOf(carrier);
    // A sampled read is recorded as a write is.
    expect(requestSpans.at(-1)).toMatchObject({ name: 'GET /shares/:id', traceId, spanId, attributes: { 'http.request.method': 'GET' } });
    expect(line).toMatchObject({ trace_id: traceId, span_id: spanId });
    runJob(carrier);
    const job = (await finished()).find((span) => span.name === 'share_test')!;
    expect(job.spanContext().traceId).toBe(traceId);
    expect(job.parentSpanContext?.spanId).toBe(spanId);
  });

  it('a client’s traceparent is continued: sampled when its flag says so under parentbased, whatever the ratio', async () => {
    const { get, post, requestSpans } = await tracedApp('parentbased_traceidratio', '0');
    const client = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' };
    const sampled = await get({ traceparent: `00-${client.traceId}-${client.spanId}-01`, tracestate: 'vendor=abc' });
    const [span] = requestSpans;
    expect(span).toMatchObject({ traceId: client.traceId, parent: { spanId: client.spanId, isRemote: true }, traceState: 'vendor=abc' });
    expect(traceparentOf(sampled.carrier)).toEqual({ traceId: client.traceId, spanId: span!.spanId, sampled: true });

    // A write continues it unsampled (a read would run with no trace context).
    const unsampled = await post({ traceparent: `00-${client.traceId}-${client.spanId}-00` });
    expect(requestSpans).toHaveLength(1);
    const carried = traceparentOf(unsampled.carrier);
    expect(carried).toMatchObject({ traceId: client.traceId, sampled: false });
    expect(carried.spanId).not.toBe(client.spanId);

    // Without a trace header, the root sampler (ratio 0) decides: nothing recorded, no extraction.
    const extract = vi.spyOn(propagation, 'extract');
    expect(traceparentOf((await post()).carrier).traceId).not.toBe(client.traceId);
    expect(extract).not.toHaveBeenCalled();
    expect(requestSpans).toHaveLength(1);
  });
});

describe('the sampler the OTEL_TRACES_SAMPLER variables name', () => {
  it('is the SDK’s own for each name it reads, parentbased_always_on when unset', () => {
    expect(samplerFromEnv({}).toString()).toMatch(/^ParentBased\{root=AlwaysOnSampler,/);
    expect(samplerFromEnv({ OTEL_TRACES_SAMPLER: 'always_on' }).toString()).toBe('AlwaysOnSampler');
    expect(samplerFromEnv({ OTEL_TRACES_SAMPLER: 'always_off' }).toString()).toBe('AlwaysOffSampler');
    expect(samplerFromEnv({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' }).toString()).toBe('TraceIdRatioBased{0.25}');
    expect(samplerFromEnv({ OTEL_TRACES_SAMPLER: 'traceidratio' }).toString()).toBe('TraceIdRatioBased{1}');
    expect(samplerFromEnv({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' }).toString()).toMatch(
      /^ParentBased\{root=TraceIdRatioBased\{0\.1\},/,
    );
    expect(samplerFromEnv({ OTEL_TRACES_SAMPLER: 'parentbased_always_off' }).toString()).toMatch(/^ParentBased\{root=AlwaysOffSampler,/);
  });

  it('refuses, at the start, a name or a ratio the SDK would replace with its default', async () => {
    expect(() => samplerFromEnv({ OTEL_TRACES_SAMPLER: 'jaeger_remote' })).toThrow(
      'OTEL_TRACES_SAMPLER=jaeger_remote is not a sampler dms knows; use one of always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off, parentbased_traceidratio',
    );
    expect(() => samplerFromEnv({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '10%' })).toThrow(
      'OTEL_TRACES_SAMPLER_ARG=10% is not a ratio from 0 to 1',
    );
    expect(() => samplerFromEnv({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '1.5' })).toThrow(
      'OTEL_TRACES_SAMPLER_ARG=1.5 is not a ratio from 0 to 1',
    );
    await expect(startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9', OTEL_TRACES_SAMPLER: 'sometimes' })).rejects.toThrow(
      'OTEL_TRACES_SAMPLER=sometimes is not a sampler dms knows',
    );
  });
});
