import { SpanKind, SpanStatusCode, context, propagation, trace, type Attributes, type Context as TraceContext, type Span } from '@opentelemetry/api';
import type { Context } from 'hono';
import type { HttpBindings } from '@hono/node-server';
import type { AppEnv } from '../http/env.js';
import { requestHeader } from '../http/request-header.js';
import { LinkedContext } from './linked-context.js';

/** How a traced server starts a request's span (server/request-tracer.ts, made when the SDK starts). */
export interface RequestTracer {
  /** The headers the registered propagator reads (`traceparent`, `tracestate`, `baggage` by default). */
  readonly carrierHeaders: readonly Lowercase<string>[];
  /**
   * The request's span, decided by the sampler first. Not sampled, it is a span context that does
   * not record when `keepUnsampled`, and undefined otherwise.
   */
  startSpan(name: string, kind: SpanKind, attributes: Attributes, parent: TraceContext, keepUnsampled: boolean): Span | undefined;
}

/**
 * The methods that only read. A read queues no job and calls no peer, so when it is not sampled
 * no trace context of it would reach anything: it runs without one, as with tracing off
 * (docs/decisions/196-unsampled-reads-run-untraced.md).
 */
const readMethods = new Set(['GET', 'HEAD']);

/**
 * Reads the request's headers as Node parsed them (requestHeader): `c.req.header()` or
 * `c.req.raw` would have @hono/node-server build a web Request, which costs more than the span.
 */
const headerGetter = {
  keys: (c: Context<AppEnv>) => Object.keys((c.env as Partial<HttpBindings> | undefined)?.incoming?.headers ?? {}),
  get: (c: Context<AppEnv>, key: string) => requestHeader(c, key.toLowerCase() as Lowercase<string>),
};

/** What a route's span starts with for one method: its name, and what a sampler may look at. */
interface SpanStart {
  name: string;
  attributes: Attributes;
}

/** The methods a route's span start is kept for (any other is made per request). */
const standardMethods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Each request of `route` (undefined: the requests no route matched) as a server span (HTTP
 * semantic conventions), active while `handle` runs, so the jobs it queues and the lines it logs
 * carry its trace. A `traceparent` the client sent is continued. Only composed in when tracing is
 * on (docs/decisions/181-traces.md); the sampler decides before a span is built
 * (docs/decisions/189-sampler-first-request-spans.md), and a read it leaves out runs with no
 * trace context (docs/decisions/196-unsampled-reads-run-untraced.md). The span's name and first
 * attributes are made once per route and method: every request asks the sampler with them, and
 * nine in ten are not sampled.
 */
export function tracedRoute(
  route: string | undefined,
  tracer: RequestTracer,
  handle: (c: Context<AppEnv>) => Response | Promise<Response>,
): (c: Context<AppEnv>) => Response | Promise<Response> {
  const startOf = (method: string): SpanStart => ({
    name: route === undefined ? method : `${method} ${route}`,
    attributes: Object.freeze(route === undefined ? { 'http.request.method': method } : { 'http.request.method': method, 'http.route': route }),
  });
  const starts = new Map([...standardMethods].map((method) => [method, startOf(method)]));
  return (c) => {
    const method = c.req.method;
    const { name, attributes } = starts.get(method) ?? startOf(method);
    // Most requests carry no trace context: the propagator's extraction costs them for nothing.
    // Contexts made here link their values to the active one instead of copying a Map (linked-context.ts).
    const parent = carriesTraceContext(c, tracer.carrierHeaders)
      ? propagation.extract(LinkedContext.over(context.active()), c, headerGetter)
      : context.active();
    // What a sampler may look at goes in at the start; the rest only onto a span that records
    // (most are not sampled, and attributes cost each span that carries them).
    const span = tracer.startSpan(name, SpanKind.SERVER, attributes, parent, !readMethods.has(method));
    if (span === undefined) return handle(c);
    const active = trace.setSpan(LinkedContext.over(parent), span);
    // A span that does not record has nothing to be told of the answer: no wait on it.
    if (!span.isRecording()) return context.with(active, handle, undefined, c);
    const agent = requestHeader(c, 'user-agent');
    span.setAttributes({
      'url.path': c.req.path,
      'url.scheme': c.req.url.startsWith('https:') ? 'https' : 'http',
      ...(agent === undefined ? {} : { 'user_agent.original': agent.slice(0, 256) }),
    });
    const response = context.with(active, handle, undefined, c);
    if (!(response instanceof Promise)) return answered(span, response);
    return response.then(
      (settled) => answered(span, settled),
      (error: unknown) => {
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
        span.end();
        throw error;
      },
    );
  };
}

function carriesTraceContext(c: Context<AppEnv>, headers: readonly Lowercase<string>[]): boolean {
  for (const header of headers) if (requestHeader(c, header) !== undefined) return true;
  return false;
}

function answered(span: Span, response: Response): Response {
  span.setAttribute('http.response.status_code', response.status);
  // Server spans: a 4xx is the client's, not the span's, error.
  if (response.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
  return response;
}
