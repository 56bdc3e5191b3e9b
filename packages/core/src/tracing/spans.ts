import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';

/**
 * dms's spans (docs/decisions/181-traces.md). The core speaks only OpenTelemetry's API: with no
 * SDK registered (tracing off, the default) every call here meets the API's no-op tracer and
 * records nothing; a host that turns tracing on registers the SDK and the same calls record.
 * `getTracer` answers a proxy, so a provider registered after this module loads is used.
 */
const tracer = trace.getTracer('dms');

/** A W3C trace context (`traceparent`, `tracestate`) carried with work that runs later. */
export type TraceCarrier = Record<string, string>;

/** The active trace context as a carrier; undefined when there is none to carry (tracing off, or no span). */
export function activeTraceCarrier(): TraceCarrier | undefined {
  if (trace.getActiveSpan() === undefined) return undefined;
  const carrier: TraceCarrier = {};
  propagation.inject(context.active(), carrier);
  return Object.keys(carrier).length > 0 ? carrier : undefined;
}

/** The context a carrier names, for a span that continues its trace; the root when none. */
export function contextOf(carrier: TraceCarrier | undefined): Context {
  return carrier === undefined ? ROOT_CONTEXT : propagation.extract(ROOT_CONTEXT, carrier);
}

export interface SpanOptions {
  attributes?: Attributes;
  kind?: SpanKind;
  /** The parent; the active context when left out. */
  parent?: Context;
}

/**
 * Runs `work` inside a new span, active for what it calls (its log lines carry the trace id), and
 * ends the span with the outcome: a throw is the span's error, then thrown on.
 */
export function inSpan<T>(name: string, options: SpanOptions, work: (span: Span) => Promise<T>): Promise<T> {
  const parent = options.parent ?? context.active();
  return tracer.startActiveSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, ...(options.attributes ? { attributes: options.attributes } : {}) },
    parent,
    async (span) => {
      try {
        return await work(span);
      } catch (error) {
        failSpan(span, error);
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

/** A call to a peer (an smbclient run, an RPC call, an SNMP send): a client span around it. */
export function peerCall<T>(name: string, attributes: Attributes, call: () => Promise<T>): Promise<T> {
  return inSpan(name, { kind: SpanKind.CLIENT, attributes }, () => call());
}

/** Marks a span failed with what went wrong. */
export function failSpan(span: Span, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
  if (error instanceof Error) span.recordException(error);
}

/**
 * A step that has already run, as a child of `parent`: its start is its end less its duration
 * (a driver reports each step once it is over, with how long it took).
 */
export function recordStepSpan(
  parent: Span,
  step: { name: string; outcome: string; duration_ms: number; message?: string | undefined },
  endedAtMs: number,
  attributes: Attributes = {},
): void {
  if (!parent.isRecording()) return;
  const span = tracer.startSpan(
    step.name,
    { startTime: endedAtMs - step.duration_ms, attributes: { ...attributes, 'dms.step.outcome': step.outcome } },
    trace.setSpan(context.active(), parent),
  );
  if (step.outcome === 'failed') span.setStatus({ code: SpanStatusCode.ERROR, ...(step.message === undefined ? {} : { message: step.message }) });
  span.end(endedAtMs);
}

/** The active span's trace and span id for a log line; undefined when nothing is traced. */
export function activeTraceIds(): { trace_id: string; span_id: string } | undefined {
  const span = trace.getActiveSpan();
  if (span === undefined) return undefined;
  const { traceId, spanId, traceFlags } = span.spanContext();
  // An unsampled span's ids lead nowhere in a trace store.
  if ((traceFlags & 1) === 0) return undefined;
  return { trace_id: traceId, span_id: spanId };
}

export { ROOT_CONTEXT, SpanKind, type Span };
