import {
  SamplingDecision,
  TraceFlags,
  isSpanContextValid,
  propagation,
  trace,
  type Attributes,
  type Context,
  type SpanKind,
  type Tracer,
  type Span,
} from '@opentelemetry/api';
import { RandomIdGenerator, type IdGenerator, type Sampler } from '@opentelemetry/sdk-trace';
import type { RequestTracer } from '../pipeline/trace-request.js';

/**
 * The SDK's id generator, except that the trace id of the next span may be chosen beforehand:
 * the request path picks a trace id, asks the sampler, and only for a sampled request has the
 * SDK build the span, which must carry the id the sampler was asked about.
 */
export class ChosenTraceIds implements IdGenerator {
  private readonly random = new RandomIdGenerator();
  private chosen: string | undefined;

  generateTraceId(): string {
    const chosen = this.chosen;
    if (chosen === undefined) return this.random.generateTraceId();
    this.chosen = undefined;
    return chosen;
  }

  generateSpanId(): string {
    return this.random.generateSpanId();
  }

  /** Runs `start` (which makes one span, synchronously) with `traceId` as the trace id it is given. */
  startWith<T>(traceId: string, start: () => T): T {
    this.chosen = traceId;
    try {
      return start();
    } finally {
      // A span under a valid parent takes the parent's trace id and never asks for one.
      this.chosen = undefined;
    }
  }
}

/**
 * Request spans decided by the sampler before any span is built
 * (docs/decisions/189-sampler-first-request-spans.md): an unsampled request gets a span context
 * of its own ids, not recording, from the API alone; a sampled one is the SDK's span with the trace
 * id the sampler was asked about. `sampler` and `ids` are the ones the SDK was given, so the SDK,
 * asking the same sampler about the same trace id and parent, decides the same.
 */
export function samplerFirstTracer(sampler: Sampler, ids: ChosenTraceIds, tracer: Tracer): RequestTracer {
  return {
    carrierHeaders: propagation.fields().map((field) => field.toLowerCase() as Lowercase<string>),
    startSpan(name: string, kind: SpanKind, attributes: Attributes, parent: Context): Span {
      const parentSpan = trace.getSpanContext(parent);
      const inherited = parentSpan !== undefined && isSpanContextValid(parentSpan) ? parentSpan : undefined;
      const traceId = inherited?.traceId ?? ids.generateTraceId();
      const sampling = sampler.shouldSample(parent, traceId, name, kind, attributes, []);
      if (sampling.decision === SamplingDecision.NOT_RECORD) {
        const traceState = sampling.traceState ?? inherited?.traceState;
        return trace.wrapSpanContext({ traceId, spanId: ids.generateSpanId(), traceFlags: TraceFlags.NONE, ...(traceState ? { traceState } : {}) });
      }
      return ids.startWith(traceId, () => tracer.startSpan(name, { kind, attributes }, parent));
    },
  };
}
