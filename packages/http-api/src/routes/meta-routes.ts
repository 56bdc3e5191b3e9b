import { respond, respondJson } from '../http/respond.js';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Core } from '@dms/core';
import type { AppEnv } from '../http/env.js';
import type { RouteTable } from '../http/route-table.js';
import { docsPageHeaders, renderDocsPage } from '../http/docs-page.js';

export const apiDescriptionVersion = '2.1.0';

/** Public endpoints: service description, OpenAPI document, API reference, health. */
export function registerMetaRoutes(routes: RouteTable, openapi: OpenAPIHono<AppEnv>, core: Core, base: string): void {
  let document: object | undefined;
  const openApiDocument = () =>
    (document ??= openapi.getOpenAPI31Document({
      openapi: '3.1.0',
      info: {
        title: 'dms: data management service for NAS storage',
        version: apiDescriptionVersion,
        description: 'REST API v2. Authentication: Basic, Bearer API key (scoped controller / action) or Bearer JWT.',
      },
      servers: [{ url: base }],
    }));
  openapi.openAPIRegistry.registerComponent('securitySchemes', 'basic', { type: 'http', scheme: 'basic' });
  openapi.openAPIRegistry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer', description: 'API key or JWT' });

  routes.addUnlisted('GET', base, (c) => respondJson(c, { service: 'dms', api_version: 2, description_version: apiDescriptionVersion }));
  routes.addUnlisted('GET', `${base}/openapi.json`, (c) => respondJson(c, openApiDocument()));
  routes.addUnlisted('GET', `${base}/docs`, (c) =>
    respond(c, renderDocsPage(openApiDocument() as Parameters<typeof renderDocsPage>[0]), 'text/html; charset=UTF-8', 200, { ...docsPageHeaders }),
  );
  routes.addUnlisted('GET', '/healthz', (c) => respondJson(c, { status: 'ok' }));
  routes.addUnlisted('GET', '/readyz', async (c) => {
    await core.deps.storage.ping();
    return respondJson(c, { status: 'ready' });
  });
}
