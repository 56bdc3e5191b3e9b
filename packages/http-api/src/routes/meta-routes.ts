import type { Context } from 'hono';
import { respond, respondEmpty, respondJson } from '../http/respond.js';
import { DomainError } from '@dms/core';
import { type Core, type SnmpAgentState } from '@dms/core/runtime';
import type { RouteTable } from './route-table.js';
import type { AppEnv } from '../http/env.js';
import { responseHeaders } from '../http/common-headers.js';
import { requestHeader } from '../http/request-header.js';
import {
  docsAssetParameter,
  docsPageHeaders,
  loadScalarBundle,
  renderDocsPage,
  scalarAssetName,
  type DocsAsset,
  type DocsDocument,
} from '../http/docs-page.js';
import { apiDescriptionVersion, openApiDocument, type OpenApiDocument } from '../contracts/openapi-document.js';
import { dmsVersion } from '../version.js';

/** Public endpoints: service description, OpenAPI document, API reference, health. */
export function registerMetaRoutes(routes: RouteTable, core: Core, base: string, snmpAgent: () => SnmpAgentState): void {
  // Built on first request, not at start: most processes (the CLI, tests) never serve it.
  let document: OpenApiDocument | undefined;
  const theDocument = () => (document ??= openApiDocument());

  routes.addUnlisted('GET', base, (c) => respondJson(c, { service: 'dms', version: dmsVersion, api_version: 2, description_version: apiDescriptionVersion }));
  // A browser pointed at the server's address lands on the API reference. 302, not 301: a
  // browser keeps a permanent redirect for good, and / may serve something else one day.
  routes.addUnlisted('GET', '/', (c) => respondEmpty(c, 302, { Location: `${base}/docs` }));
  routes.addUnlisted('GET', `${base}/openapi.json`, (c) => respondJson(c, theDocument()));
  // Read on first request too: 4 MB that the CLI and most tests never need.
  let bundle: DocsAsset | undefined;
  const theBundle = () => (bundle ??= loadScalarBundle());
  routes.addUnlisted('GET', `${base}/docs`, (c) => {
    const asset = c.req.query(docsAssetParameter);
    if (asset === undefined) {
      const page = renderDocsPage(theDocument() as DocsDocument, { documentUrl: 'openapi.json', bundleVersion: theBundle().version });
      return respond(c, page, 'text/html; charset=UTF-8', 200, { ...docsPageHeaders });
    }
    if (asset !== scalarAssetName) throw DomainError.notFound(docsAssetParameter, asset);
    return sendAsset(c, theBundle());
  });
  routes.addUnlisted('GET', '/healthz', (c) => respondJson(c, { status: 'ok' }));
  // Ready when the storage answers and every component the operator asked for runs: an SNMP
  // agent that could not bind its port is 503, so monitoring sees it.
  routes.addUnlisted('GET', '/readyz', async (c) => {
    await core.ping();
    const agent = snmpAgent();
    if (agent.state === 'failed') {
      throw new DomainError('unavailable', `the SNMP agent is down: UDP port ${agent.port}: ${agent.reason}`, {
        retryAfter: 30,
        details: { snmp_agent: [{ error: 'invalid', value: agent.reason }] },
      });
    }
    return respondJson(c, { status: 'ready', snmp_agent: agent.state });
  });
}

/**
 * The bundle with its precomputed ETag (hashing 4 MB per request would cost milliseconds).
 * Its URL carries the bundle's version, so a browser may keep it for a day without asking.
 */
function sendAsset(c: Context<AppEnv>, asset: DocsAsset): Response {
  const headers = responseHeaders(c, { 'Content-Type': 'text/javascript; charset=UTF-8', 'Cache-Control': 'public, max-age=86400', ETag: asset.etag });
  const revalidated = requestHeader(c, 'if-none-match')
    ?.split(',')
    .some((tag) => tag.trim().replace(/^W\//, '') === asset.etag);
  return new Response(revalidated ? null : asset.text, { status: revalidated ? 304 : 200, headers });
}
