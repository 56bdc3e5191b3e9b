import { Hono } from 'hono';
import { oidcPublicPaths } from './operations/oidc.js';
import { DomainError, authorizeAdmin, serverDefaults } from '@dms/core';
import { type Core, type SnmpAgentState } from '@dms/core/runtime';
import type { Logger } from 'pino';
import type { AppEnv } from './http/env.js';
import { RouteTable } from './routes/route-table.js';
import { errorResponse, toDomainError } from './http/error-response.js';
import { requestIdOf } from './http/common-headers.js';
import { createObserver } from './pipeline/observe.js';
import { authenticate } from './pipeline/access.js';
import { corsFromRules } from './pipeline/cors.js';
import { limitBody } from './pipeline/body-limit.js';
import { createPipeline } from './pipeline/pipeline.js';
import type { RequestTracer } from './pipeline/trace-request.js';
import { clientAddressResolver } from './rate-limit/client-address.js';
import { createMetrics, type Metrics } from './metrics/metrics.js';
import { respondMetrics } from './metrics/metrics-response.js';
import { registerMetaRoutes } from './routes/meta-routes.js';
import { restOperations } from './operations/rest-operations.js';

export { apiBasePath as apiBase } from './contracts/api-base-path.js';
import { apiBasePath as apiBase } from './contracts/api-base-path.js';

export interface AppOptions {
  core: Core;
  logger: Logger;
  /** Largest accepted request body in bytes (serverDefaults.maxBodyBytes, 1 MiB, by default). */
  maxBodyBytes?: number;
  /** Addresses or CIDR blocks of reverse proxies whose X-Forwarded-For is believed. */
  trustedProxies?: readonly string[];
  /** The SNMP agent's state, for /readyz (openDms's `snmpAgent`); no agent when absent. */
  snmpAgent?: () => SnmpAgentState;
  /** A server span per request, started by this tracer (tracing on; docs/decisions/181-traces.md). */
  tracer?: RequestTracer | undefined;
}

export interface DmsApp {
  app: Hono<AppEnv>;
  routes: RouteTable;
  metrics: Metrics;
}

/** The Hono application: thin routes over the core, one error mapping, 404/405 answers. */
export function createApp(options: AppOptions): DmsApp {
  const { core, logger } = options;
  const app = new Hono<AppEnv>();
  const metrics = createMetrics({
    unfinishedJobs: () => core.jobs.countUnfinishedByKind(),
    jobRejections: () => core.jobs.rejections(),
    openAlerts: () => core.alerts.countOpen(),
    shares: (pageSize) => core.shares.gauges(pageSize),
    activity: core.activity,
  });
  const loginPath = `${apiBase}/auth/login`;
  const publicPaths = new Set([
    apiBase,
    `${apiBase}/`,
    `${apiBase}/openapi.json`,
    `${apiBase}/docs`,
    loginPath,
    ...oidcPublicPaths.map((path) => `${apiBase}${path}`),
  ]);
  const pipeline = createPipeline({
    observer: createObserver(logger, metrics),
    cors: corsFromRules(() => core.corsRules.all(), core.events),
    limitBody: limitBody(options.maxBodyBytes ?? serverDefaults.maxBodyBytes),
    authenticate: authenticate(core.access, publicPaths, {
      onAuthFailure: () => metrics.authFailures.inc(),
      clientAddress: clientAddressResolver(options.trustedProxies ?? []),
    }),
    // /metrics takes credentials too: the same failure count, lockout and rate limits apply.
    guards: (path) => path === apiBase || path.startsWith(`${apiBase}/`) || path === '/metrics',
    logger,
    tracer: options.tracer,
  });
  const routes = new RouteTable(app, apiBase, pipeline);

  registerMetaRoutes(routes, core, apiBase, options.snmpAgent ?? (() => ({ state: 'off' })));
  routes.bind(restOperations, core);
  routes.addUnlisted('GET', '/metrics', async (c) => {
    // Admin-only like users, settings and CORS rules (scope catalogue): the scope, and admin rights through every path.
    authorizeAdmin(c.get('principal'), 'metrics', 'index', 'read metrics');
    return respondMetrics(c, await metrics.exposition(), metrics.registry.contentType);
  });
  routes.register();

  app.notFound(
    pipeline.wrapUnmatched((c) => {
      const path = c.req.path;
      const allowed = path.startsWith(`${apiBase}/`) ? routes.allowedMethods(path) : undefined;
      if (allowed) {
        return errorResponse(
          c,
          new DomainError('method_not_allowed', `${c.req.method} is not allowed on ${path}; allowed: ${allowed.join(', ')}`, {
            details: { method: [{ error: 'invalid', value: c.req.method }] },
          }),
          { Allow: allowed.join(', ') },
        );
      }
      const version = /^\/api\/(v[^/]*)/.exec(path)?.[1];
      if (version !== undefined && version !== 'v2') {
        return errorResponse(
          c,
          new DomainError('not_found', `API version ${version} is not supported; the supported version is v2 (${apiBase})`, {
            details: { api_version: [{ error: 'not_found', value: version }] },
          }),
        );
      }
      return errorResponse(c, new DomainError('not_found', `no resource at ${path}`, { details: { path: [{ error: 'not_found', value: path }] } }));
    }),
  );

  // The pipeline answers every error itself; this is the last resort should one escape it.
  app.onError((error, c) => {
    logger.error({ err: error, req_id: requestIdOf(c) }, 'unhandled error outside the request pipeline');
    return errorResponse(c, toDomainError(error));
  });

  return { app, routes, metrics };
}
