import { Server } from 'node:http';
import { serve as serveNode, type HttpBindings, type Http2Bindings, type ServerType } from '@hono/node-server';
import { capConnections } from './connection-caps.js';
import { trackForGracefulClose } from './graceful-close.js';
import { defaultHttpLimits, httpServerOptions, type HttpLimits } from './http-limits.js';
import { lingerOnClose } from './lingering-close.js';
import { answerParserRefusals, type ParserRefusal } from './parser-refusals.js';

/** A start-up failure with the message to show and nothing else (no stack). */
export class StartupError extends Error {
  override readonly name = 'StartupError';
}

/** What to tell the operator to change, in the host's own terms (an env var, a settings field). */
export interface ListenRemedies {
  port: string;
  host: string;
}

const envRemedies: ListenRemedies = { port: 'set DMS_PORT', host: 'set DMS_HOST' };

/** Why a listen failed, in words the operator can act on. */
export function listenFailureMessage(error: unknown, host: string, port: number, remedies: ListenRemedies = envRemedies): string {
  const code = (error as { code?: string }).code;
  const where = `${host}:${port}`;
  if (code === 'EADDRINUSE') return `cannot listen on ${where}: the port is in use; stop what uses it or ${remedies.port}`;
  if (code === 'EACCES') return `cannot listen on ${where}: permission denied (ports below 1024 need root); ${remedies.port}`;
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `cannot listen on ${where}: no such local address; ${remedies.host}`;
  return `cannot listen on ${where}: ${error instanceof Error ? error.message : String(error)}; check the host and port`;
}

export interface ListenOptions {
  /** Connection caps and timeouts; the defaults of DMS_MAX_CONNECTIONS and its kin otherwise. */
  limits?: Partial<HttpLimits>;
  /** Told of each request the HTTP parser refused (answered here, never seen by the app). */
  onParserRefusal?: (refusal: ParserRefusal) => void;
}

/**
 * Serves `fetch` on host:port, its connections capped and timed (finding 20.14), what the
 * parser refuses answered as model_error (issue 21 item 7), and a connection closed after
 * its last answer without losing it (item 6), ready for a bounded close (closeGracefully,
 * item 4). Rejects with a StartupError that says what to change.
 */
export function listenHttp(
  /** Given Node's request and response as `env` (`incoming`), which the app's header reads use. */
  fetch: (request: Request, env: HttpBindings | Http2Bindings) => Response | Promise<Response>,
  host: string,
  port: number,
  remedies?: ListenRemedies,
  options: ListenOptions = {},
): Promise<ServerType> {
  const limits: HttpLimits = { ...defaultHttpLimits, ...options.limits };
  return new Promise((resolve, reject) => {
    const server = serveNode({ fetch, hostname: host, port, serverOptions: httpServerOptions(limits) }, () => resolve(server));
    if (server instanceof Server) {
      capConnections(server, limits);
      answerParserRefusals(server, options.onParserRefusal);
      server.on('connection', lingerOnClose);
      trackForGracefulClose(server);
    }
    server.once('error', (error) => {
      server.close();
      reject(new StartupError(listenFailureMessage(error, host, port, remedies)));
    });
  });
}

/** The base URL a listening server answers on (the bound port when 0 was asked). */
export function listeningUrl(server: ServerType, host: string, port: number, path: string): string {
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  return `http://${host.includes(':') ? `[${host}]` : host}:${bound}${path}`;
}
