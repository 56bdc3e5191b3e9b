import { Hono } from 'hono';
import { OpenAPIHono } from '@hono/zod-openapi';
import { requestId } from 'hono/request-id';
import { bodyLimit } from 'hono/body-limit';
import { DomainError, type Core } from '@dms/core';
import type { Logger } from 'pino';
import type { AppEnv } from './http/env.js';
import { RouteTable } from './http/route-table.js';
import { errorResponse, toDomainError } from './http/error-response.js';
import { accessLog } from './middleware/access-log.js';
import { authenticate } from './middleware/authenticate.js';
import { registerMetaRoutes } from './routes/meta-routes.js';
import { registerShareRoutes } from './routes/share-routes.js';
import { registerResourceRoutes } from './routes/resource-routes.js';
import { registerJobRoutes } from './routes/job-routes.js';

export const apiBase = '/api/v2';

export interface AppOptions {
  core: Core;
  logger: Logger;
  /** Largest accepted request body in bytes (1 MiB by default). */
  maxBodyBytes?: number;
}

export interface DmsApp {
  app: Hono<AppEnv>;
  routes: RouteTable;
}

/** The Hono application: thin routes over the core, one error mapping, 404/405 answers. */
export function createApp(options: AppOptions): DmsApp {
  const { core, logger } = options;
  const app = new Hono<AppEnv>();
  const openapi = new OpenAPIHono<AppEnv>();
  const routes = new RouteTable(app, openapi, apiBase);
  const publicPaths = new Set([apiBase, `${apiBase}/`, `${apiBase}/openapi.json`, `${apiBase}/docs`]);

  app.use('*', requestId());
  app.use('*', accessLog(logger));
  app.use(
    `${apiBase}/*`,
    bodyLimit({
      maxSize: options.maxBodyBytes ?? 1024 * 1024,
      onError: (c) => errorResponse(c, new DomainError('payload_too_large', 'request body is too large', { details: { body: [{ error: 'too_long', count: options.maxBodyBytes ?? 1024 * 1024 }] } })),
    }),
  );
  app.use(`${apiBase}/*`, authenticate(core, publicPaths));

  registerMetaRoutes(app, openapi, core, apiBase);
  registerJobRoutes(routes, core);
  registerShareRoutes(routes, core);
  registerResourceRoutes(routes, core);

  app.notFound((c) => {
    const path = c.req.path;
    const allowed = path.startsWith(`${apiBase}/`) ? routes.allowedMethods(path) : undefined;
    if (allowed) {
      c.header('Allow', allowed.join(', '));
      return errorResponse(c, new DomainError('method_not_allowed', `${c.req.method} is not allowed on ${path}; allowed: ${allowed.join(', ')}`, { details: { method: [{ error: 'invalid', value: c.req.method }] } }));
    }
    const version = /^\/api\/(v[^/]*)/.exec(path)?.[1];
    if (version !== undefined && version !== 'v2') {
      return errorResponse(c, new DomainError('not_found', `API version ${version} is not supported; the supported version is v2 (${apiBase})`, { details: { api_version: [{ error: 'not_found', value: version }] } }));
    }
    return errorResponse(c, new DomainError('not_found', `no resource at ${path}`, { details: { path: [{ error: 'not_found', value: path }] } }));
  });

  app.onError((error, c) => {
    const domainError = toDomainError(error);
    if (domainError.code === 'internal') logger.error({ err: error, req_id: c.get('requestId') }, 'unhandled error');
    return errorResponse(c, domainError);
  });

  return { app, routes };
}
