import type { Context, Handler } from 'hono';
import type { Logger } from 'pino';
import { DomainError } from '@dms/core';
import type { AppEnv } from '../http/env.js';
import { errorResponse, toDomainError } from '../http/error-response.js';
import { requestIdOf } from '../http/common-headers.js';
import type { Observer } from './observe.js';
import type { RouteHandler, Step } from './step.js';
import { tracedRoute, type RequestTracer } from './trace-request.js';

export interface PipelineSteps {
  observer: Observer;
  /** Answers CORS preflights; marks actual requests from an allowed origin. */
  cors: Step;
  /** Caps the request body (every method but GET and HEAD). */
  limitBody: Step;
  /** Credentials and rate limits, on the paths that `guards` names. */
  authenticate: Step;
  guards(path: string): boolean;
  logger: Logger;
  /** Each request a server span around every step (tracing on: docs/decisions/181-traces.md); off, not composed in. */
  tracer?: RequestTracer | undefined;
}

export interface Pipeline {
  /**
   * The route's handler with every step around it, composed once when the route is
   * registered: Hono sees one handler per route and runs it on its fast path, where a
   * chain of middleware costs a compose, a context and a promise per layer per request.
   * `route` is the pattern (`/api/v2/nas_shares/:nas_share_id`) that metrics count under.
   */
  wrap(route: string, handler: RouteHandler): Handler<AppEnv>;
  /** For requests no route matched (404, 405, preflights): the steps, with the path decided per request. */
  wrapUnmatched(handler: RouteHandler): (c: Context<AppEnv>) => Response | Promise<Response>;
}

const withoutBody = new Set(['GET', 'HEAD']);

/** Longest request path accepted, in bytes as sent (percent-encoded, before the query). */
export const maxPathBytes = 8192;

/**
 * The path as the client sent it, which is never shorter than the decoded `c.req.path`
 * the later steps see. A parsed URL holds only ASCII there, but an adapter that copies the
 * raw request line may not, so a middling length is counted in UTF-8.
 */
function pathTooLong(url: string): boolean {
  const start = url.indexOf('/', url.indexOf('://') + 3);
  if (start === -1) return false;
  const query = url.indexOf('?', start);
  const fragment = url.indexOf('#', start);
  const end = Math.min(query === -1 ? url.length : query, fragment === -1 ? url.length : fragment);
  const length = end - start;
  // A UTF-16 unit is 1 to 3 UTF-8 bytes (a surrogate pair, 2 units, is 4).
  if (length * 3 <= maxPathBytes) return false;
  if (length > maxPathBytes) return true;
  return Buffer.byteLength(url.slice(start, end)) > maxPathBytes;
}

const uriTooLong = () =>
  new DomainError('uri_too_long', `request path is longer than ${maxPathBytes} bytes`, {
    details: { path: [{ error: 'too_long', count: maxPathBytes }] },
  });

export function createPipeline(steps: PipelineSteps): Pipeline {
  const { observer, cors, limitBody, authenticate, guards, logger, tracer } = steps;

  /** Anything thrown, by a step or the route, becomes a model_error answer here. */
  const answerError = (c: Context<AppEnv>, error: unknown): Response => {
    const domainError = toDomainError(error);
    if (domainError.code === 'internal') logger.error({ err: error, req_id: requestIdOf(c) }, 'unhandled error');
    return errorResponse(c, domainError);
  };

  const compose = (route: string | undefined, handler: RouteHandler) => {
    const run = (c: Context<AppEnv>, guarded: boolean) => {
      const handle = () => handler(c);
      const checked = guarded ? () => authenticate(c, handle) : handle;
      return cors(c, withoutBody.has(c.req.method) ? checked : () => limitBody(c, checked));
    };
    const guardedRoute = route === undefined ? undefined : guards(route);
    const metricsRoute = route ?? '*';
    // Synchronous while every step answers at once (a GET of a share by id on SQLite with a
    // known key): @hono/node-server then writes the answer in the same tick, where a promise
    // anywhere costs each request a fifth more CPU (docs/decisions/080-request-pipeline.md).
    const handleRequest = (c: Context<AppEnv>): Response | Promise<Response> => {
      const started = observer.begin(c);
      const answered = (response: Response) => {
        observer.end(c, metricsRoute, response, started);
        return response;
      };
      const failed = (error: unknown) => answered(answerError(c, error));
      let response: Response | Promise<Response>;
      try {
        // Checked first, before CORS and credentials: every later step, and the route,
        // does work that grows with the path.
        if (pathTooLong(c.req.url)) throw uriTooLong();
        response = run(c, guardedRoute ?? guards(c.req.path));
      } catch (error) {
        return failed(error);
      }
      return response instanceof Promise ? response.then(answered, failed) : answered(response);
    };
    return tracer ? tracedRoute(route, tracer, handleRequest) : handleRequest;
  };

  return {
    wrap: (route, handler) => compose(route, handler),
    wrapUnmatched: (handler) => compose(undefined, handler),
  };
}
