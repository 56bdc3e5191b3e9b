import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { describe, expect, it } from 'vitest';
import { attribute, fromProtobuf } from '../testing/otlp-receiver.js';
import { recordsAsOtlpProtobuf } from './otlp-records.js';
import type { RequestSpanRecord } from './request-span.js';

const resource = resourceFromAttributes({ 'service.name': 'records-test', 'process.pid': 42 });

const record = (spanId: string, overrides: Partial<RequestSpanRecord> = {}): RequestSpanRecord => ({
  name: 'GET /nas_shares/:id',
  kind: SpanKind.SERVER,
  traceId: 'a'.repeat(32),
  spanId,
  startTime: 1_790_000_000_123.25,
  endTime: 1_790_000_000_124.5,
  attributes: { 'http.request.method': 'GET', 'http.response.status_code': 200 },
  events: [],
  links: [],
  status: { code: SpanStatusCode.UNSET },
  ...overrides,
});

describe('request span records as OTLP protobuf', () => {
  it('are one request under the resource, each span with its ids, parent, times, attributes, events and links', () => {
    const body = fromProtobuf(
      recordsAsOtlpProtobuf(
        [
          record('b'.repeat(16), {
            parent: { spanId: 'c'.repeat(16), isRemote: true },
            traceState: 'vendor=x',
            events: [{ name: 'retry', time: 1_790_000_000_124, attributes: { attempt: 2 } }],
            links: [{ traceId: 'd'.repeat(32), spanId: 'e'.repeat(16) }],
            status: { code: SpanStatusCode.ERROR, message: 'no answer' },
          }),
        ],
        resource,
      ),
    );
    expect(body.resourceSpans).toHaveLength(1);
    expect(attribute(body.resourceSpans[0]!.resource, 'service.name')).toBe('records-test');
    const [span] = body.resourceSpans[0]!.scopeSpans[0]!.spans;
    expect(span).toMatchObject({
      traceId: 'a'.repeat(32),
      spanId: 'b'.repeat(16),
      parentSpanId: 'c'.repeat(16),
      traceState: 'vendor=x',
      name: 'GET /nas_shares/:id',
      kind: 2,
      startTimeUnixNano: '1790000000123250000',
      endTimeUnixNano: '1790000000124500000',
      status: { code: 2, message: 'no answer' },
    });
    expect(attribute(span!, 'http.response.status_code')).toBe(200);
    expect(span!.events?.map((event) => [event.name, event.timeUnixNano, attribute(event, 'attempt')])).toEqual([['retry', '1790000000124000000', 2]]);
    expect(span!.links?.map((link) => [link.traceId, link.spanId])).toEqual([['d'.repeat(32), 'e'.repeat(16)]]);
  });

  it('joined end to end, two requests read as one holding the spans of both', () => {
    const first = recordsAsOtlpProtobuf([record('1'.repeat(16)), record('2'.repeat(16))], resource);
    const second = recordsAsOtlpProtobuf([record('3'.repeat(16))], resource);
    const body = fromProtobuf(Buffer.concat([first, second]));
    expect(body.resourceSpans.flatMap((resourceSpans) => resourceSpans.scopeSpans.flatMap((scope) => scope.spans.map((span) => span.spanId)))).toEqual([
      '1'.repeat(16),
      '2'.repeat(16),
      '3'.repeat(16),
    ]);
  });
});
