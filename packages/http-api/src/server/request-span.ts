import {
  SpanStatusCode,
  type Attributes,
  type AttributeValue,
  type Exception,
  type Link,
  type Span,
  type SpanContext,
  type SpanKind,
  type SpanStatus,
  type TimeInput,
} from '@opentelemetry/api';

/**
 * A sampled request's span as plain data, to be exported by the SDK in the trace export worker
 * (span-export-worker-source.ts; docs/decisions/194-request-spans-exported-off-the-loop.md).
 * Times are Unix epoch milliseconds with a fraction; ids are the span context's.
 */
export interface RequestSpanRecord {
  name: string;
  kind: SpanKind;
  traceId: string;
  spanId: string;
  /** The W3C `tracestate` header's value, when the span context has one. */
  traceState?: string;
  parent?: { spanId: string; isRemote: boolean };
  startTime: number;
  endTime: number;
  attributes: Attributes;
  events: { name: string; time: number; attributes?: Attributes }[];
  links: { traceId: string; spanId: string; attributes?: Attributes }[];
  status: SpanStatus;
}

/** Epoch milliseconds with a fraction, from a clock that does not step back. */
const nowMs = () => performance.timeOrigin + performance.now();

function epochMs(time: TimeInput | undefined): number {
  if (time === undefined) return nowMs();
  if (typeof time === 'number') return time;
  if (time instanceof Date) return time.getTime();
  return time[0] * 1000 + time[1] / 1e6;
}

/**
 * The span a sampled request is given: what it is told goes into a record, which `end` hands to
 * `ship` (nothing of the SDK runs on the event loop for it). The API's contract holds: calls
 * after `end` are ignored, `isRecording` is false once ended.
 */
export class RecordedRequestSpan implements Span {
  private readonly record: RequestSpanRecord;
  private ended = false;

  constructor(
    name: string,
    kind: SpanKind,
    attributes: Attributes,
    private readonly context: SpanContext,
    parent: SpanContext | undefined,
    private readonly ship: (record: RequestSpanRecord) => void,
  ) {
    this.record = {
      name,
      kind,
      traceId: context.traceId,
      spanId: context.spanId,
      ...(context.traceState ? { traceState: context.traceState.serialize() } : {}),
      ...(parent ? { parent: { spanId: parent.spanId, isRemote: parent.isRemote === true } } : {}),
      startTime: nowMs(),
      endTime: 0,
      attributes: { ...attributes },
      events: [],
      links: [],
      status: { code: SpanStatusCode.UNSET },
    };
  }

  spanContext(): SpanContext {
    return this.context;
  }

  setAttribute(key: string, value: AttributeValue): this {
    if (!this.ended) this.record.attributes[key] = value;
    return this;
  }

  setAttributes(attributes: Attributes): this {
    if (!this.ended) Object.assign(this.record.attributes, attributes);
    return this;
  }

  addEvent(name: string, attributesOrTime?: Attributes | TimeInput, time?: TimeInput): this {
    if (this.ended) return this;
    const isTime =
      attributesOrTime === undefined || typeof attributesOrTime === 'number' || attributesOrTime instanceof Date || Array.isArray(attributesOrTime);
    const attributes = isTime ? undefined : (attributesOrTime as Attributes);
    this.record.events.push({
      name,
      time: epochMs(isTime ? ((attributesOrTime as TimeInput | undefined) ?? time) : time),
      ...(attributes ? { attributes } : {}),
    });
    return this;
  }

  addLink(link: Link): this {
    if (!this.ended) {
      const { traceId, spanId } = link.context;
      this.record.links.push({ traceId, spanId, ...(link.attributes ? { attributes: link.attributes } : {}) });
    }
    return this;
  }

  addLinks(links: Link[]): this {
    for (const link of links) this.addLink(link);
    return this;
  }

  setStatus(status: SpanStatus): this {
    // As the SDK: UNSET changes nothing, OK is final, a message only goes with ERROR.
    if (this.ended || status.code === SpanStatusCode.UNSET || this.record.status.code === SpanStatusCode.OK) return this;
    this.record.status =
      status.code === SpanStatusCode.ERROR && typeof status.message === 'string' ? { code: status.code, message: status.message } : { code: status.code };
    return this;
  }

  updateName(name: string): this {
    if (!this.ended) this.record.name = name;
    return this;
  }

  end(endTime?: TimeInput): void {
    if (this.ended) return;
    this.ended = true;
    this.record.endTime = Math.max(this.record.startTime, epochMs(endTime));
    this.ship(this.record);
  }

  isRecording(): boolean {
    return !this.ended;
  }

  recordException(exception: Exception, time?: TimeInput): void {
    const attributes: Attributes = {};
    if (typeof exception === 'string') attributes['exception.message'] = exception;
    else {
      const type = exception.code ?? exception.name;
      if (type !== undefined) attributes['exception.type'] = String(type);
      if (exception.message) attributes['exception.message'] = exception.message;
      if (exception.stack) attributes['exception.stacktrace'] = exception.stack;
    }
    this.addEvent('exception', attributes, time);
  }
}
