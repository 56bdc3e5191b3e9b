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

/**
 * A request as a server span (HTTP semantic conventions), active while the route runs, so the
 * jobs it queues and the lines it logs carry its trace. A `traceparent` the client sent is
 * continued. Only composed in when tracing is on (docs/decisions/181-traces.md); the sampler
 * decides before a span is built (docs/decisions/189-sampler-first-request-spans.md), and a read
 * it leaves out runs with no trace context (docs/decisions/196-unsampled-reads-run-untraced.md).
 */
export function traceRequest(
  c: Context<AppEnv>,
  route: string | undefined,
  tracer: RequestTracer,
  handle: () => Response | Promise<Response>,
): Response | Promise<Response> {
  const method = c.req.method;
  // Most requests carry no trace context: the propagator's extraction costs them for nothing.
  // Contexts made here link their values to the active one instead of copying a Map (linked-context.ts).
  const parent = carriesTraceContext(c, tracer.carrierHeaders) ? propagation.extract(LinkedContext.over(context.active()), c, headerGetter) : context.active();
  // What a sampler may look at goes in at the start; the rest only onto a span that records
  // (most are not sampled, and attributes cost each span that carries them).
  const span = tracer.startSpan(
    route === undefined ? method : `${method} ${route}`,
    SpanKind.SERVER,
    { 'http.request.method': method, ...(route === undefined ? {} : { 'http.route': route }) },
    parent,
    !readMethods.has(method),
  );
  if (span === undefined) return handle();
  const active = trace.setSpan(LinkedContext.over(parent), span);
  // A span that does not record has nothing to be told of the answer: no wait on it.
  if (!span.isRecording()) return context.with(active, handle);
  const agent = requestHeader(c, 'user-agent');
  span.setAttributes({
    'url.path': c.req.path,
    'url.scheme': c.req.url.startsWith('https:') ? 'https' : 'http',
    ...(agent === undefined ? {} : { 'user_agent.original': agent.slice(0, 256) }),
  });
  const answered = (response: Response) => {
    end(span, response.status);
    return response;
  };
  const response = context.with(active, handle);
  return response instanceof Promise
    ? response.then(answered, (error: unknown) => {
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
        span.end();
        throw error;
      })
    : answered(response);
}

function carriesTraceContext(c: Context<AppEnv>, headers: readonly Lowercase<string>[]): boolean {
  for (const header of headers) if (requestHeader(c, header) !== undefined) return true;
  return false;
}

function end(span: Span, status: number): void {
  span.setAttribute('http.response.status_code', status);
  // Server spans: a 4xx is the client's, not the span's, error.
  if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}
