import { TraceFlags, createTraceState, type SpanContext } from '@opentelemetry/api';
import { hrTimeDuration, millisToHrTime } from '@opentelemetry/core';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import type { RequestSpanRecord } from '../server/request-span.js';
import { requestSpanScope } from '../server/otlp-span-buffer.js';

const scope = { name: requestSpanScope };

/**
 * A sampled request's record as OpenTelemetry's OTLP serializer reads an ended span, under
 * `resource`: the reference the service's own encoder (server/otlp-span-buffer.ts) is held to.
 */
export function recordAsSpan(record: RequestSpanRecord, resource: Resource): ReadableSpan {
  const context: SpanContext = {
    traceId: record.traceId,
    spanId: record.spanId,
    traceFlags: TraceFlags.SAMPLED,
    ...(record.traceState ? { traceState: createTraceState(record.traceState) } : {}),
  };
  const startTime = millisToHrTime(record.startTime);
  const endTime = millisToHrTime(record.endTime);
  return {
    name: record.name,
    kind: record.kind,
    spanContext: () => context,
    ...(record.parent
      ? { parentSpanContext: { traceId: record.traceId, spanId: record.parent.spanId, traceFlags: TraceFlags.SAMPLED, isRemote: record.parent.isRemote } }
      : {}),
    startTime,
    endTime,
    duration: hrTimeDuration(startTime, endTime),
    ended: true,
    status: record.status,
    attributes: record.attributes,
    events: record.events.map((event) => ({
      name: event.name,
      time: millisToHrTime(event.time),
      attributes: event.attributes ?? {},
      droppedAttributesCount: 0,
    })),
    links: record.links.map((link) => ({
      context: { traceId: link.traceId, spanId: link.spanId, traceFlags: TraceFlags.SAMPLED },
      attributes: link.attributes ?? {},
      droppedAttributesCount: 0,
    })),
    resource,
    instrumentationScope: scope,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}

/** Records as one OTLP ExportTraceServiceRequest in protobuf, by OpenTelemetry's own serializer. */
export function recordsAsOtlpProtobuf(records: readonly RequestSpanRecord[], resource: Resource): Uint8Array {
  const bytes = ProtobufTraceSerializer.serializeRequest(records.map((record) => recordAsSpan(record, resource)));
  if (bytes === undefined) throw new Error('the OTLP serializer made nothing of the records');
  return bytes;
}
