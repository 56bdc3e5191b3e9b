import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the proxy does with the next request: answer it itself, hold it, or pass it on. */
export type Fault = { status: number; retryAfter?: string } | 'hang' | 'forward';

export interface FaultProxy {
  url: string;
  /** Faults for the next requests, in order; then every request is forwarded. */
  faults: Fault[];
  /** Requests seen, as `METHOD /path`. */
  requests: string[];
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A reverse proxy in front of a real server that can answer a request with a status of its
 * own (503 with Retry-After, as a server under maintenance would) or hold it; the rest reach
 * the server unchanged, so every other answer keeps the real server's semantics.
 */
export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const proxy: FaultProxy = { url: '', faults: [], requests: [], close: async () => {} };
  const held: ServerResponse[] = [];
  const server = createServer(async (request, response) => {
    proxy.requests.push(`${request.method} ${request.url}`);
    const body = await readBody(request);
    const fault = proxy.faults.shift() ?? 'forward';
    if (fault === 'hang') return void held.push(response);
    if (fault !== 'forward') {
      const headers: Record<string, string> = { 'content-type': 'application/json', 'x-request-id': 'proxy' };
      if (fault.retryAfter !== undefined) headers['retry-after'] = fault.retryAfter;
      response.writeHead(fault.status, headers).end(JSON.stringify({ details: {}, messages: [`proxy answered ${fault.status}`] }));
      return;
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string' && name !== 'host') headers.set(name, value);
    const answer = await fetch(`${target}${request.url}`, { method: request.method!, headers, body: body.length > 0 ? body.toString('utf8') : undefined });
    const out: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (name !== 'content-length' && name !== 'transfer-encoding' && name !== 'content-encoding') out[name] = value;
    });
    response.writeHead(answer.status, out).end(Buffer.from(await answer.arrayBuffer()));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = async () => {
    for (const response of held) response.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return proxy;
}
