import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { Logger } from 'pino';
import type { AppEnv } from '../http/env.js';
import { requestHeader } from '../http/request-header.js';
import type { Metrics } from '../metrics/metrics.js';
import { addResponseHeaders } from '../http/respond.js';

const validRequestId = /^[\w\-.:]{1,255}$/;

/**
 * Request id, access log line and metrics in one middleware: every async middleware costs
 * the node adapter its fast path, so what wraps each request wraps it once.
 * The log line has method, path, status and duration; never headers or bodies.
 */
export function observe(logger: Logger, metrics: Metrics): MiddlewareHandler<AppEnv> {
  const logs = logger.isLevelEnabled('info');
  return async (c, next) => {
    const started = performance.now();
    const given = requestHeader(c, 'x-request-id');
    const id = given !== undefined && validRequestId.test(given) ? given : randomUUID();
    c.set('requestId', id);
    addResponseHeaders(c, { 'X-Request-Id': id });
    await next();
    const ms = performance.now() - started;
    metrics.record(c.req.method, c.req.routePath, c.res.status, ms / 1000);
    if (!logs) return;
    const principal = c.get('principal');
    logger.info(
      {
        req_id: id,
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round(ms * 100) / 100,
        ...(principal ? { principal: principal.kind === 'user' ? `user:${principal.username}` : `api_key:${principal.keyId}` } : {}),
      },
      'request',
    );
  };
}
