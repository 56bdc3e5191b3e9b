import {
  SamplingDecision,
  TraceFlags,
  isSpanContextValid,
  propagation,
  trace,
  type Attributes,
  type Context,
  type SpanKind,
  type Span,
  type SpanContext,
} from '@opentelemetry/api';
import { RandomIdGenerator, type Sampler, type SamplingResult } from '@opentelemetry/sdk-trace';
import type { RequestTracer } from '../pipeline/trace-request.js';
import { RecordedRequestSpan, type RequestSpanRecord } from './request-span.js';
import { RootTraceIdRatio } from './root-trace-ids.js';

/**
 * Request spans decided by the sampler before any span is built
 * (docs/decisions/189-sampler-first-request-spans.md): an unsampled request gets a span context
 * of its own ids, not recording, from the API alone, or nothing when the caller keeps no
 * unsampled span (docs/decisions/196-unsampled-reads-run-untraced.md); a sampled one a RecordedRequestSpan, whose
 * record goes to `ship` when it ends, to be exported off the event loop
 * (docs/decisions/194-request-spans-exported-off-the-loop.md). `sampler` is the one the SDK was
 * given, so the spans the SDK makes under a request (its jobs) decide alike. When it decides a
 * root span by `rootTraceIdRatio` of its trace id alone, a request that continues no trace is
 * decided from the id's words (docs/decisions/201-root-trace-ids-decided-as-words.md).
 */
export function samplerFirstTracer(sampler: Sampler, ship: (record: RequestSpanRecord) => void, rootTraceIdRatio?: number): RequestTracer {
  const ids = new RandomIdGenerator();
  const roots = rootTraceIdRatio === undefined ? undefined : new RootTraceIdRatio(rootTraceIdRatio);
  const sampledRoot: SamplingResult = { decision: SamplingDecision.RECORD_AND_SAMPLED };
  const unsampledRoot: SamplingResult = { decision: SamplingDecision.NOT_RECORD };
  /** The request's span of `traceId` as `sampling` decided it. */
  const spanOf = (
    traceId: string,
    sampling: SamplingResult,
    inherited: SpanContext | undefined,
    name: string,
    kind: SpanKind,
    attributes: Attributes,
  ): Span => {
    const traceState = sampling.traceState ?? inherited?.traceState;
    const spanContext = { traceId, spanId: ids.generateSpanId(), traceFlags: TraceFlags.NONE, ...(traceState ? { traceState } : {}) };
    if (sampling.decision === SamplingDecision.NOT_RECORD) return trace.wrapSpanContext(spanContext);
    const recorded = { ...spanContext, traceFlags: sampling.decision === SamplingDecision.RECORD_AND_SAMPLED ? TraceFlags.SAMPLED : TraceFlags.NONE };
    // A span recorded but not sampled (a custom sampler's RECORD) is never exported.
    return new RecordedRequestSpan(
      name,
      kind,
      { ...attributes, ...sampling.attributes },
      recorded,
      inherited,
      recorded.traceFlags === TraceFlags.SAMPLED ? ship : () => {},
    );
  };
  return {
    carrierHeaders: propagation.fields().map((field) => field.toLowerCase() as Lowercase<string>),
    startSpan(name: string, kind: SpanKind, attributes: Attributes, parent: Context, keepUnsampled: boolean): Span | undefined {
      const parentSpan = trace.getSpanContext(parent);
      const inherited = parentSpan !== undefined && isSpanContextValid(parentSpan) ? parentSpan : undefined;
      if (inherited === undefined && roots !== undefined) {
        const sampled = roots.draw();
        if (!sampled && !keepUnsampled) return undefined;
        return spanOf(roots.traceId(), sampled ? sampledRoot : unsampledRoot, undefined, name, kind, attributes);
      }
      const traceId = inherited?.traceId ?? ids.generateTraceId();
      const sampling = sampler.shouldSample(parent, traceId, name, kind, attributes, []);
      if (sampling.decision === SamplingDecision.NOT_RECORD && !keepUnsampled) return undefined;
      return spanOf(traceId, sampling, inherited, name, kind, attributes);
    },
  };
}
