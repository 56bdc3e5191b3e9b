import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { Readable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { contentSecurityPolicy } from '../main/window-options.js';
import { securityHeaders } from '../main/navigation-policy.js';
import type { DesktopContext } from '../main/context.js';
import { handleTrpcRequest, trpcEndpoint } from './fetch-host.js';

const contentTypes: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' };

/** The app's CSP but for the network: calls go to this host over HTTP instead of IPC. */
const testHostPolicy = contentSecurityPolicy.replace("connect-src 'none'", "connect-src 'self'");

async function toRequest(req: IncomingMessage, origin: string): Promise<Request> {
  const method = req.method ?? 'GET';
  const headers = new Headers(Object.entries(req.headers).flatMap(([name, value]) => (value === undefined ? [] : [[name, String(value)] as [string, string]])));
  const body = method === 'GET' || method === 'HEAD' ? undefined : (Readable.toWeb(req) as ReadableStream);
  return new Request(new URL(req.url ?? '/', origin), { method, headers, body, ...(body ? { duplex: 'half' } : {}) } as RequestInit);
}

async function sendResponse(res: ServerResponse, response: Response): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) return void res.end();
  // Streamed as it comes: subscriptions are server-sent events.
  for await (const chunk of Readable.fromWeb(response.body as NodeReadableStream)) res.write(chunk);
  res.end();
}

/**
 * Serves a built renderer (`staticDir`) and the router over tRPC's HTTP adapter on 127.0.0.1,
 * for the browser tests and the first-screen benchmark.
 */
export async function serveConsole(staticDir: string, context: DesktopContext): Promise<{ url: string; server: Server; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const origin = `http://${req.headers.host ?? '127.0.0.1'}`;
    const path = new URL(req.url ?? '/', origin).pathname;
    const reply = async () => {
      if (path.startsWith(`${trpcEndpoint}/`)) return sendResponse(res, await handleTrpcRequest(await toRequest(req, origin), context));
      const file = normalize(join(staticDir, path === '/' ? 'index.html' : path));
      if (!file.startsWith(staticDir)) return void res.writeHead(404).end();
      const content = await readFile(file).catch(() => undefined);
      if (!content) return void res.writeHead(404).end();
      res.writeHead(200, { ...securityHeaders(testHostPolicy), 'Content-Type': contentTypes[extname(file)] ?? 'application/octet-stream' });
      res.end(content);
    };
    reply().catch(() => (res.headersSent ? res.end() : res.writeHead(500).end()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    server,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
