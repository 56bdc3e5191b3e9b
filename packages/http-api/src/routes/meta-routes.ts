import { respond, respondJson } from '../http/respond.js';
import type { Core } from '@dms/core';
import type { RouteTable } from '../http/route-table.js';
import { docsPageHeaders, renderDocsPage } from '../http/docs-page.js';
import { apiDescriptionVersion, openApiDocument, type OpenApiDocument } from '../contracts/openapi-document.js';

/** Public endpoints: service description, OpenAPI document, API reference, health. */
export function registerMetaRoutes(routes: RouteTable, core: Core, base: string): void {
  // Built on first request, not at start: most processes (the CLI, tests) never serve it.
  let document: OpenApiDocument | undefined;
  const theDocument = () => (document ??= openApiDocument());

  routes.addUnlisted('GET', base, (c) => respondJson(c, { service: 'dms', api_version: 2, description_version: apiDescriptionVersion }));
  routes.addUnlisted('GET', `${base}/openapi.json`, (c) => respondJson(c, theDocument()));
  routes.addUnlisted('GET', `${base}/docs`, (c) => respond(c, renderDocsPage(theDocument()), 'text/html; charset=UTF-8', 200, { ...docsPageHeaders }));
  routes.addUnlisted('GET', '/healthz', (c) => respondJson(c, { status: 'ok' }));
  routes.addUnlisted('GET', '/readyz', async (c) => {
    await core.deps.storage.ping();
    return respondJson(c, { status: 'ready' });
  });
}
