import { respond, respondJson } from '../http/respond.js';
import { DomainError, type Core, type SnmpAgentState } from '@dms/core';
import type { RouteTable } from '../http/route-table.js';
import { docsPageHeaders, renderDocsPage } from '../http/docs-page.js';
import { apiDescriptionVersion, openApiDocument, type OpenApiDocument } from '../contracts/openapi-document.js';

/** Public endpoints: service description, OpenAPI document, API reference, health. */
export function registerMetaRoutes(routes: RouteTable, core: Core, base: string, snmpAgent: () => SnmpAgentState): void {
  // Built on first request, not at start: most processes (the CLI, tests) never serve it.
  let document: OpenApiDocument | undefined;
  const theDocument = () => (document ??= openApiDocument());

  routes.addUnlisted('GET', base, (c) => respondJson(c, { service: 'dms', api_version: 2, description_version: apiDescriptionVersion }));
  routes.addUnlisted('GET', `${base}/openapi.json`, (c) => respondJson(c, theDocument()));
  routes.addUnlisted('GET', `${base}/docs`, (c) => respond(c, renderDocsPage(theDocument()), 'text/html; charset=UTF-8', 200, { ...docsPageHeaders }));
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
