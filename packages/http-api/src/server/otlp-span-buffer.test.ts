import { SpanKind, SpanStatusCode, createTraceState, type Attributes } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { attribute, fromProtobuf } from '../testing/otlp-receiver.js';
import { recordsAsOtlpProtobuf } from '../testing/otlp-reference.js';
import { OtlpSpanBuffer } from './otlp-span-buffer.js';
import type { RequestSpanRecord } from './request-span.js';

const resourceAttributes = { 'service.name': 'records-test', 'process.pid': 42 };

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

const requestOf = (records: RequestSpanRecord[], resource: Attributes = resourceAttributes) => {
  const buffer = new OtlpSpanBuffer(resource);
  for (const one of records) buffer.append(one);
  return buffer.take()!;
};

const spanIdsOf = (bytes: Uint8Array) =>
  fromProtobuf(bytes).resourceSpans.flatMap((resourceSpans) => resourceSpans.scopeSpans.flatMap((scope) => scope.spans.map((span) => span.spanId)));

// Attribute values of every kind the API allows, and some it does not (a serializer meets both).
const attributeValue = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.constantFrom(-(2 ** 63), 2 ** 63, 2 ** 53 + 2, -(2 ** 40), 4294967296),
  fc.array(fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.constant(undefined)), { maxLength: 4 }),
  fc.uint8Array({ maxLength: 8 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.oneof(fc.string(), fc.integer()), { maxKeys: 3 }),
  fc.constant(undefined),
);
const attributes = fc.dictionary(fc.string({ maxLength: 12 }), attributeValue, { maxKeys: 6 }) as fc.Arbitrary<Attributes>;
const hex = (length: number) => fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: length, maxLength: length });
const epochMillis = fc.double({ min: 0, max: 4_102_444_800_000, noNaN: true });
const arbitraryRecord: fc.Arbitrary<RequestSpanRecord> = fc.record(
  {
    name: fc.string({ maxLength: 300 }),
    kind: fc.constantFrom(SpanKind.INTERNAL, SpanKind.SERVER, SpanKind.CLIENT, SpanKind.PRODUCER, SpanKind.CONSUMER),
    traceId: hex(32),
    spanId: hex(16),
    traceState: fc.constantFrom('vendor=x', 'a=1,b=2', 'congo=t61rcWkgMzE').map((state) => createTraceState(state).serialize()),
    parent: fc.record({ spanId: hex(16), isRemote: fc.boolean() }),
    startTime: epochMillis,
    endTime: epochMillis,
    attributes,
    events: fc.array(fc.record({ name: fc.string(), time: epochMillis, attributes }, { requiredKeys: ['name', 'time'] }), { maxLength: 2 }),
    links: fc.array(fc.record({ traceId: hex(32), spanId: hex(16), attributes }, { requiredKeys: ['traceId', 'spanId'] }), { maxLength: 2 }),
    status: fc.oneof(
      fc.constant({ code: SpanStatusCode.UNSET }),
      fc.constant({ code: SpanStatusCode.OK }),
      fc.record({ code: fc.constant(SpanStatusCode.ERROR), message: fc.string() }),
    ),
  },
  { requiredKeys: ['name', 'kind', 'traceId', 'spanId', 'startTime', 'endTime', 'attributes', 'events', 'links', 'status'] },
);

describe('request spans written as OTLP protobuf as they end', () => {
  it('property: the request holds the bytes OpenTelemetry serializes of the same spans under the same resource', () => {
    fc.assert(
      fc.property(fc.array(arbitraryRecord, { minLength: 1, maxLength: 4 }), attributes, (records, detected) => {
        // The worker tells the attributes of its SDK's resource, as a Resource holds them.
        const resource = resourceFromAttributes(detected);
        const expected = recordsAsOtlpProtobuf(records, resource);
        expect(Buffer.from(requestOf(records, resource.attributes)).equals(Buffer.from(expected))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('are one request under the resource, each span with its ids, parent, times, attributes, events and links', () => {
    const body = fromProtobuf(
      requestOf([
        record('b'.repeat(16), {
          parent: { spanId: 'c'.repeat(16), isRemote: true },
          traceState: 'vendor=x',
          events: [{ name: 'retry', time: 1_790_000_000_124, attributes: { attempt: 2 } }],
          links: [{ traceId: 'd'.repeat(32), spanId: 'e'.repeat(16) }],
          status: { code: SpanStatusCode.ERROR, message: 'no answer' },
        }),
      ]),
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

  it('takes what was written since the last take, nothing when nothing was; takes joined end to end read as one request', () => {
    const buffer = new OtlpSpanBuffer(resourceAttributes);
    expect(buffer.take()).toBeUndefined();
    buffer.append(record('1'.repeat(16)));
    buffer.append(record('2'.repeat(16)));
    expect(buffer.spans).toBe(2);
    const first = buffer.take()!;
    expect(buffer.spans).toBe(0);
    expect(buffer.take()).toBeUndefined();
    buffer.append(record('3'.repeat(16)));
    const second = buffer.take()!;
    // Each take is a buffer of its own: handing one over leaves the next intact.
    expect(first.buffer).not.toBe(second.buffer);
    expect(spanIdsOf(second)).toEqual(['3'.repeat(16)]);
    expect(spanIdsOf(Buffer.concat([first, second]))).toEqual(['1'.repeat(16), '2'.repeat(16), '3'.repeat(16)]);
  });

  it('writes a span larger than its buffer, with lengths of several bytes, as OpenTelemetry does', () => {
    const records = [record('1'.repeat(16), { attributes: { 'big.value': 'x'.repeat(200_000), 'mid.value': 'é'.repeat(9_000) } }), record('2'.repeat(16))];
    const bytes = requestOf(records);
    expect(Buffer.from(bytes).equals(Buffer.from(recordsAsOtlpProtobuf(records, resourceFromAttributes(resourceAttributes))))).toBe(true);
    const [big] = fromProtobuf(bytes).resourceSpans[0]!.scopeSpans[0]!.spans;
    expect(attribute(big!, 'big.value')).toHaveLength(200_000);
  });

  it('leaves nothing of a span it could not write: the spans around it are read as if it never came', () => {
    const buffer = new OtlpSpanBuffer(resourceAttributes);
    buffer.append(record('1'.repeat(16)));
    const unreadable = record('2'.repeat(16), { attributes: { written: 'first' } });
    Object.defineProperty(unreadable.attributes, 'throws', {
      enumerable: true,
      get: () => {
        throw new Error('an attribute that cannot be read');
      },
    });
    expect(() => buffer.append(unreadable)).toThrow('an attribute that cannot be read');
    buffer.append(record('3'.repeat(16)));
    expect(buffer.spans).toBe(2);
    expect(spanIdsOf(buffer.take()!)).toEqual(['1'.repeat(16), '3'.repeat(16)]);
  });
});
