import type { Attributes } from '@opentelemetry/api';
import { millisToHrTime } from '@opentelemetry/core';
import type { RequestSpanRecord } from './request-span.js';

/** The instrumentation scope of request spans: the tracer dms's spans are made by. */
export const requestSpanScope = 'dms';

/** Span flags: the trace flags' byte, and whether the parent is known to be remote, and is (OTLP `SpanFlags`). */
const sampledFlags = 0x01 | 0x100;
const remoteParentFlag = 0x200;
/** Most request spans take a few hundred bytes; the buffer doubles when one does not fit, until it is taken. */
const initialCapacity = 64 * 1024;
/** A buffer grown past this by a large span is not kept for the next request. */
const keptCapacity = 1024 * 1024;

/**
 * Sampled request spans written as OTLP protobuf as each ends, into one buffer, and taken as one
 * ExportTraceServiceRequest under `resource` (docs/decisions/200-request-spans-encoded-as-they-end.md).
 * The bytes are those OpenTelemetry's `ProtobufTraceSerializer` makes of the same spans, field
 * for field (otlp-span-buffer.test.ts holds it to that), but a span costs no object of its own:
 * no intermediate span, no size pass, no buffer a batch. The resource and scope are written once
 * and put in front of the spans when they are taken.
 */
export class OtlpSpanBuffer {
  /** `ResourceSpans.resource` and `ScopeSpans.scope`, each with its tag and length. */
  readonly #resourceField: Uint8Array;
  readonly #scopeField: Uint8Array;
  /** Room before the spans for the request's, the resource spans' and the scope spans' headers. */
  readonly #headroom: number;
  /** A Buffer for its native UTF-8 and hex writers. */
  #buffer: Buffer;
  #view: DataView;
  #pos: number;
  #spans = 0;

  constructor(resource: Attributes) {
    this.#buffer = Buffer.alloc(initialCapacity);
    this.#view = new DataView(this.#buffer.buffer, this.#buffer.byteOffset, this.#buffer.byteLength);
    this.#pos = 0;
    this.#resourceField = this.fieldBytes(1, () => {
      this.attributes(1, resource);
      this.tag(2, 0);
      this.varint(0);
    });
    this.#scopeField = this.fieldBytes(1, () => {
      this.tag(1, 2);
      this.string(requestSpanScope);
    });
    this.#headroom = 2 * (1 + 5) + this.#resourceField.length + this.#scopeField.length;
    this.#pos = this.#headroom;
  }

  /** Spans written and not yet taken. */
  get spans(): number {
    return this.#spans;
  }

  /** Writes `record` as one more span (`ScopeSpans.spans`); if that throws, nothing of it stays written. */
  append(record: RequestSpanRecord): void {
    const mark = this.#pos;
    try {
      this.tag(2, 2);
      const start = this.startLength();
      this.span(record);
      this.finishLength(start);
    } catch (error) {
      this.#pos = mark;
      throw error;
    }
    this.#spans += 1;
  }

  /**
   * The spans written since the last take as one request, in a buffer of its own and of its size
   * to hand over (its ArrayBuffer may be transferred); undefined when there are none.
   */
  take(): Uint8Array | undefined {
    if (this.#spans === 0) return undefined;
    const spansEnd = this.#pos;
    const scopeSpansLength = this.#scopeField.length + (spansEnd - this.#headroom);
    const resourceSpansLength = this.#resourceField.length + 1 + varintSize(scopeSpansLength) + scopeSpansLength;
    const headerLength = 1 + varintSize(resourceSpansLength) + this.#resourceField.length + 1 + varintSize(scopeSpansLength) + this.#scopeField.length;
    this.#pos = this.#headroom - headerLength;
    const start = this.#pos;
    this.tag(1, 2);
    this.varint(resourceSpansLength);
    this.bytes(this.#resourceField);
    this.tag(2, 2);
    this.varint(scopeSpansLength);
    this.bytes(this.#scopeField);
    // Copied out at its size, the buffer kept: a request allocates only what it hands over, which
    // the worker's collector counts against it (docs/decisions/199-serialized-spans-posted-in-bulk.md).
    const request = Uint8Array.prototype.slice.call(this.#buffer, start, spansEnd);
    // One very large span does not keep every later request's buffer as large.
    if (this.#buffer.length > keptCapacity) {
      this.#buffer = Buffer.alloc(initialCapacity);
      this.#view = new DataView(this.#buffer.buffer, this.#buffer.byteOffset, this.#buffer.byteLength);
    }
    this.#pos = this.#headroom;
    this.#spans = 0;
    return request;
  }

  /** Field `field` holding what `write` writes, as bytes of their own (written once, at the start). */
  private fieldBytes(field: number, write: () => void): Uint8Array {
    const from = this.#pos;
    this.tag(field, 2);
    const start = this.startLength();
    write();
    this.finishLength(start);
    return Uint8Array.prototype.slice.call(this.#buffer, from, this.#pos);
  }

  private span(record: RequestSpanRecord): void {
    this.tag(1, 2);
    this.hexId(record.traceId);
    this.tag(2, 2);
    this.hexId(record.spanId);
    if (record.traceState) {
      this.tag(3, 2);
      this.string(record.traceState);
    }
    if (record.parent) {
      this.tag(4, 2);
      this.hexId(record.parent.spanId);
    }
    this.tag(5, 2);
    this.string(record.name);
    // OTLP's SpanKind counts from UNSPECIFIED: the API's INTERNAL (0) is its 1.
    this.tag(6, 0);
    this.varint(record.kind + 1);
    this.tag(7, 1);
    this.epochMillisAsNanos(record.startTime);
    this.tag(8, 1);
    this.epochMillisAsNanos(record.endTime);
    this.attributes(9, record.attributes);
    this.tag(10, 0);
    this.varint(0);
    for (const event of record.events) {
      this.tag(11, 2);
      const start = this.startLength();
      this.tag(1, 1);
      this.epochMillisAsNanos(event.time);
      this.tag(2, 2);
      this.string(event.name);
      if (event.attributes) this.attributes(3, event.attributes);
      this.tag(4, 0);
      this.varint(0);
      this.finishLength(start);
    }
    this.tag(12, 0);
    this.varint(0);
    for (const link of record.links) {
      this.tag(13, 2);
      const start = this.startLength();
      this.tag(1, 2);
      this.hexId(link.traceId);
      this.tag(2, 2);
      this.hexId(link.spanId);
      if (link.attributes) this.attributes(4, link.attributes);
      this.tag(5, 0);
      this.varint(0);
      this.tag(6, 5);
      this.fixed32(sampledFlags);
      this.finishLength(start);
    }
    this.tag(14, 0);
    this.varint(0);
    this.tag(15, 2);
    const status = this.startLength();
    if (record.status.message) {
      this.tag(2, 2);
      this.string(record.status.message);
    }
    this.tag(3, 0);
    this.varint(record.status.code);
    this.finishLength(status);
    this.tag(16, 5);
    this.fixed32(record.parent?.isRemote ? sampledFlags | remoteParentFlag : sampledFlags);
  }

  /** Each own key of `attributes` as a KeyValue in field `field` (an undefined value: an empty AnyValue). */
  private attributes(field: number, attributes: Attributes): void {
    for (const key in attributes) {
      if (!Object.hasOwn(attributes, key)) continue;
      this.tag(field, 2);
      const start = this.startLength();
      this.keyValue(key, attributes[key]);
      this.finishLength(start);
    }
  }

  private keyValue(key: string, value: unknown): void {
    this.tag(1, 2);
    this.string(key);
    this.tag(2, 2);
    const start = this.startLength();
    this.anyValue(value);
    this.finishLength(start);
  }

  /** An attribute value as OTLP's AnyValue, chosen as OpenTelemetry's serializer chooses. */
  private anyValue(value: unknown): void {
    if (typeof value === 'string') {
      this.tag(1, 2);
      this.string(value);
    } else if (typeof value === 'boolean') {
      this.tag(2, 0);
      this.varint(value ? 1 : 0);
    } else if (typeof value === 'number') {
      if (Number.isInteger(value) && value >= -(2 ** 63) && value < 2 ** 63) {
        this.tag(3, 0);
        this.varint(value);
      } else {
        this.tag(4, 1);
        this.ensure(8);
        this.#view.setFloat64(this.#pos, value, true);
        this.#pos += 8;
      }
    } else if (value instanceof Uint8Array) {
      this.tag(7, 2);
      this.varint(value.length);
      this.bytes(value);
    } else if (Array.isArray(value)) {
      this.tag(5, 2);
      const array = this.startLength();
      for (const item of value) {
        this.tag(1, 2);
        const start = this.startLength();
        this.anyValue(item);
        this.finishLength(start);
      }
      this.finishLength(array);
    } else if (typeof value === 'object' && value !== null) {
      this.tag(6, 2);
      const list = this.startLength();
      const entries = value as Record<string, unknown>;
      for (const key in entries) {
        if (!Object.hasOwn(entries, key)) continue;
        this.tag(1, 2);
        const start = this.startLength();
        this.keyValue(key, entries[key]);
        this.finishLength(start);
      }
      this.finishLength(list);
    }
  }

  private tag(field: number, wireType: number): void {
    this.varint((field << 3) | wireType);
  }

  /** A varint; a negative integer as its 64-bit two's complement (ten bytes), as int64 is. */
  private varint(value: number): void {
    this.ensure(10);
    const buffer = this.#buffer;
    if (value >= 0 && value <= 0xffffffff) {
      let v = value >>> 0;
      while (v > 127) {
        buffer[this.#pos++] = (v & 127) | 128;
        v >>>= 7;
      }
      buffer[this.#pos++] = v;
      return;
    }
    const magnitude = Math.abs(value);
    let low = magnitude >>> 0;
    let high = (magnitude / 4294967296) >>> 0;
    if (value < 0) {
      low = ~low >>> 0;
      high = ~high >>> 0;
      low = (low + 1) >>> 0;
      if (low === 0) high = (high + 1) >>> 0;
    }
    while (high > 0 || low > 127) {
      buffer[this.#pos++] = (low & 127) | 128;
      low = ((low >>> 7) | (high << 25)) >>> 0;
      high >>>= 7;
    }
    buffer[this.#pos++] = low & 127;
  }

  private fixed32(value: number): void {
    this.ensure(4);
    this.#view.setUint32(this.#pos, value >>> 0, true);
    this.#pos += 4;
  }

  /** Epoch milliseconds (with a fraction) as fixed64 nanoseconds, rounded as the SDK's HrTime rounds them. */
  private epochMillisAsNanos(millis: number): void {
    const [seconds, nanos] = millisToHrTime(millis);
    // seconds × 1e9 + nanos passes 2^53: the low and high words are summed apart.
    const lowSeconds = seconds & 0xffff;
    const highSeconds = (seconds / 65536) >>> 0;
    const fromLow = lowSeconds * 1e9;
    const fromHigh = highSeconds * 1e9;
    const low = (fromLow >>> 0) + (((fromHigh & 0xffff) * 65536) >>> 0) + nanos;
    const high = Math.floor(fromLow / 4294967296) + ((fromHigh / 65536) >>> 0) + Math.floor(low / 4294967296);
    this.ensure(8);
    this.#view.setUint32(this.#pos, low >>> 0, true);
    this.#view.setUint32(this.#pos + 4, high >>> 0, true);
    this.#pos += 8;
  }

  /** A trace or span id's hex as its bytes, with their length; one that is not all hex throws. */
  private hexId(hex: string): void {
    const length = hex.length >>> 1;
    this.varint(length);
    this.ensure(length);
    if (this.#buffer.write(hex, this.#pos, length, 'hex') !== length || hex.length !== 2 * length) {
      throw new Error(`${JSON.stringify(hex)} is not an id's hex`);
    }
    this.#pos += length;
  }

  /** A string as UTF-8 with its length, by Buffer's native writer. */
  private string(value: string): void {
    // A UTF-16 unit takes three bytes at most: a short string's length takes one byte, known before it is written.
    if (value.length * 3 < 128) {
      this.ensure(1 + value.length * 3);
      const written = this.#buffer.write(value, this.#pos + 1, 'utf8');
      this.#buffer[this.#pos] = written;
      this.#pos += 1 + written;
      return;
    }
    const length = Buffer.byteLength(value, 'utf8');
    this.varint(length);
    this.ensure(length);
    this.#pos += this.#buffer.write(value, this.#pos, length, 'utf8');
  }

  private bytes(bytes: Uint8Array): void {
    this.ensure(bytes.length);
    this.#buffer.set(bytes, this.#pos);
    this.#pos += bytes.length;
  }

  /** One byte is kept for a length, most are under 128; a longer one moves what follows it. */
  private startLength(): number {
    this.ensure(1);
    return this.#pos++;
  }

  private finishLength(at: number): void {
    const length = this.#pos - at - 1;
    const size = varintSize(length);
    if (size > 1) {
      this.ensure(size - 1);
      this.#buffer.copyWithin(at + size, at + 1, this.#pos);
      this.#pos += size - 1;
    }
    const end = this.#pos;
    this.#pos = at;
    this.varint(length);
    this.#pos = end;
  }

  private ensure(room: number): void {
    if (this.#pos + room <= this.#buffer.length) return;
    let capacity = this.#buffer.length * 2;
    while (capacity < this.#pos + room) capacity *= 2;
    const grown = Buffer.alloc(capacity);
    // All of it: a length being written goes back before what was written after it.
    grown.set(this.#buffer);
    this.#buffer = grown;
    this.#view = new DataView(grown.buffer, grown.byteOffset, grown.byteLength);
  }
}

function varintSize(value: number): number {
  let size = 1;
  while (value >= 128) {
    value = Math.floor(value / 128);
    size += 1;
  }
  return size;
}
