import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

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

/** An OTLP/HTTP traces receiver (JSON encoding), as a collector would be: it keeps what it is sent. */
export async function otlpReceiver(): Promise<{ server: Server; url: string; spans: ExportedSpan[]; serviceNames: Set<string> }> {
  const spans: ExportedSpan[] = [];
  const serviceNames = new Set<string>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.url === '/v1/traces' && request.headers['content-type']?.startsWith('application/json')) {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          resourceSpans: { resource: { attributes: ExportedSpan['attributes'] }; scopeSpans: { spans: ExportedSpan[] }[] }[];
        };
        for (const resourceSpans of body.resourceSpans) {
          const name = resourceSpans.resource.attributes.find((attribute) => attribute.key === 'service.name')?.value.stringValue;
          if (name) serviceNames.add(name);
          for (const scope of resourceSpans.scopeSpans) spans.push(...scope.spans);
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, serviceNames };
}

export function attribute(span: { attributes?: ExportedAttribute[] }, key: string): string | number | boolean | undefined {
  const value = span.attributes?.find((candidate) => candidate.key === key)?.value;
  if (value === undefined) return undefined;
  if (value.intValue !== undefined) return Number(value.intValue);
  return value.stringValue ?? value.boolValue;
}
