import type { MiddlewareHandler } from 'hono';
import type { Logger } from 'pino';
import type { AppEnv } from '../http/env.js';

/** One line per request: method, path, status, duration; never headers or bodies. */
export function accessLog(logger: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const principal = c.get('principal');
    logger.info(
      {
        req_id: c.get('requestId'),
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 100) / 100,
        ...(principal ? { principal: principal.kind === 'user' ? `user:${principal.username}` : `api_key:${principal.keyId}` } : {}),
      },
      'request',
    );
  };
}
