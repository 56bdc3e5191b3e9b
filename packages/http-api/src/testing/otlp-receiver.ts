import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import protobuf from 'protobufjs';

/** One span as OTLP/HTTP JSON carries it. */
export interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  traceState?: string;
  startTimeUnixNano?: string;
  endTimeUnixNano?: string;
  attributes: ExportedAttribute[];
  events?: { name: string; timeUnixNano: string; attributes?: ExportedAttribute[] }[];
  links?: { traceId: string; spanId: string }[];
  status?: { code?: number; message?: string };
}

export interface ExportedAttribute {
  key: string;
  value: { stringValue?: string; intValue?: string | number; boolValue?: boolean };
}

/** What of OTLP's trace service (opentelemetry-proto, collector/trace/v1) the receiver reads from protobuf. */
const traceProto = `
syntax = "proto3";
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; }
message Resource { repeated KeyValue attributes = 1; }
message ScopeSpans { InstrumentationScope scope = 1; repeated Span spans = 2; }
message InstrumentationScope { string name = 1; string version = 2; }
message Span {
  bytes trace_id = 1; bytes span_id = 2; string trace_state = 3; bytes parent_span_id = 4; string name = 5; int32 kind = 6;
  fixed64 start_time_unix_nano = 7; fixed64 end_time_unix_nano = 8; repeated KeyValue attributes = 9;
  repeated Event events = 11; repeated Link links = 13; Status status = 15;
  message Event { fixed64 time_unix_nano = 1; string name = 2; repeated KeyValue attributes = 3; }
  message Link { bytes trace_id = 1; bytes span_id = 2; string trace_state = 3; repeated KeyValue attributes = 4; }
}
message Status { string message = 2; int32 code = 3; }
message KeyValue { string key = 1; AnyValue value = 2; }
message AnyValue { oneof value { string string_value = 1; bool bool_value = 2; int64 int_value = 3; double double_value = 4; } }
`;
const exportRequest = protobuf.parse(traceProto).root.lookupType('ExportTraceServiceRequest');

export type Body = { resourceSpans: { resource: { attributes: ExportedSpan['attributes'] }; scopeSpans: { spans: ExportedSpan[] }[] }[] };

/** Ids in hex, as OTLP/JSON has them (the rest already is: longs as decimal strings). */
function hexIds(value: unknown): unknown {
  if (value instanceof Uint8Array) return Buffer.from(value).toString('hex');
  if (Array.isArray(value)) return value.map(hexIds);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, hexIds(field)]));
  return value;
}

/** The request's body as OTLP/JSON has it. */
export function fromProtobuf(bytes: Uint8Array): Body {
  return hexIds(exportRequest.toObject(exportRequest.decode(bytes), { longs: String, arrays: true })) as Body;
}

/**
 * An OTLP/HTTP traces receiver (JSON or protobuf encoding), as a collector would be: it keeps
 * what it is sent, and counts the export requests.
 */
export async function otlpReceiver(): Promise<{ server: Server; url: string; spans: ExportedSpan[]; serviceNames: Set<string>; requests: () => number }> {
  const spans: ExportedSpan[] = [];
  let requests = 0;
  const serviceNames = new Set<string>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const type = request.headers['content-type'] ?? '';
      const protobufBody = type.startsWith('application/x-protobuf');
      if (request.url === '/v1/traces' && (type.startsWith('application/json') || protobufBody)) {
        requests += 1;
        const bytes = Buffer.concat(chunks);
        const body = protobufBody ? fromProtobuf(bytes) : (JSON.parse(bytes.toString('utf8')) as Body);
        for (const resourceSpans of body.resourceSpans) {
          const name = resourceSpans.resource.attributes.find((attribute) => attribute.key === 'service.name')?.value.stringValue;
          if (name) serviceNames.add(name);
          for (const scope of resourceSpans.scopeSpans) spans.push(...scope.spans);
        }
      }
      // An empty ExportTraceServiceResponse, in the request's encoding.
      if (protobufBody) response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      else response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, serviceNames, requests: () => requests };
}

export function attribute(span: { attributes?: ExportedAttribute[] }, key: string): string | number | boolean | undefined {
  const value = span.attributes?.find((candidate) => candidate.key === key)?.value;
  if (value === undefined) return undefined;
  if (value.intValue !== undefined) return Number(value.intValue);
  return value.stringValue ?? value.boolValue;
}
