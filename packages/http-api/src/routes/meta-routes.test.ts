import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { expectModelError, readJson } from '../testing/fixtures.js';
import { createApp } from '../app.js';
import { createLogger } from '../http/logger.js';
import { openApiDocument } from '../contracts/openapi-document.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  servers: Array<{ url: string }>;
  paths: Record<string, Record<string, { responses: Record<string, unknown>; security?: unknown[] }>>;
  components: { securitySchemes: Record<string, unknown> };
}

/** The API's first operations (shares, traps, SNMP configuration) plus NAS and pools (docs/api.md#nas, docs/api.md#pools), as the document names them. */
const documented: Array<[string, string, string]> = [
  ['get', '/nas/{nas_id}/nas_shares', '200'],
  ['post', '/nas/{nas_id}/nas_shares', '201'],
  ['get', '/nas/{nas_id}/nas_shares/{nas_share_id}', '200'],
  ['put', '/nas/{nas_id}/nas_shares/{nas_share_id}', '200'],
  ['delete', '/nas/{nas_id}/nas_shares/{nas_share_id}', '204'],
  ['get', '/nas_shares', '200'],
  ['get', '/nas_shares/{nas_share_id}', '200'],
  ['put', '/nas_shares/{nas_share_id}', '200'],
  ['delete', '/nas_shares/{nas_share_id}', '204'],
  ['get', '/pools/{pool_id}/nas_shares', '200'],
  ['get', '/pools/{pool_id}/nas_shares/{nas_share_id}', '200'],
  ['put', '/pools/{pool_id}/nas_shares/{nas_share_id}', '200'],
  ['delete', '/pools/{pool_id}/nas_shares/{nas_share_id}', '204'],
  ['get', '/snmp/traps', '200'],
  ['post', '/snmp/traps', '201'],
  ['get', '/snmp/traps/{snmp_trap_id}', '200'],
  ['put', '/snmp/traps/{snmp_trap_id}', '200'],
  ['delete', '/snmp/traps/{snmp_trap_id}', '204'],
  ['get', '/snmp/server_configuration', '200'],
  ['put', '/snmp/server_configuration', '200'],
  ['get', '/nas', '200'],
  ['post', '/nas', '201'],
  ['get', '/nas/{nas_id}', '200'],
  ['put', '/nas/{nas_id}', '200'],
  ['delete', '/nas/{nas_id}', '204'],
  ['get', '/pools', '200'],
  ['post', '/pools', '201'],
  ['get', '/pools/{pool_id}', '200'],
  ['put', '/pools/{pool_id}', '200'],
  ['delete', '/pools/{pool_id}', '204'],
];

describe('public endpoints', () => {
  it('GET /api/v2 describes the service without a credential', async () => {
    const res = await t.call('GET', '/api/v2');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ service: 'dms', version: expect.stringMatching(/^\d+\.\d+\.\d+/), api_version: 2, description_version: '2.1.0' });
  });

  it('GET /api/v2/openapi.json is the 2.1.0 description with every endpoint', async () => {
    const res = await t.call('GET', '/api/v2/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const doc = await readJson<OpenApiDocument>(res);
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.version).toBe('2.1.0');
    expect(doc.servers[0]?.url).toBe('/api/v2');
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['basic', 'bearer']);
    for (const [method, path, status] of documented) {
      const operation = doc.paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(Object.keys(operation!.responses), `${method} ${path}`).toEqual(expect.arrayContaining([status, '400', '401', '403']));
      expect(operation!.security?.length, `${method} ${path}`).toBeGreaterThan(0);
    }
    expect(Object.keys(doc.paths['/nas_shares/{nas_share_id}']!).sort()).toEqual(['delete', 'get', 'put']);
  });

  it('GET /api/v2/openapi.json is openApiDocument(), the document built from the contracts alone', async () => {
    const res = await t.call('GET', '/api/v2/openapi.json');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
  });

  it('GET /api/v2/docs is an HTML reference page listing the share paths', async () => {
    const res = await t.call('GET', '/api/v2/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html).toContain('2.1.0');
    expect(html).toContain('/nas/{nas_id}/nas_shares/{nas_share_id}');
    expect(html).toContain('/snmp/server_configuration');
    expect(html).toContain('href="openapi.json"');
  });

  it('GET /healthz and /readyz answer without a credential', async () => {
    const health = await t.call('GET', '/healthz');
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await t.call('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', snmp_agent: 'off' });
  });

  it('GET /readyz answers 503 naming the SNMP agent when it could not start', async () => {
    const core = t.core;
    const { app } = createApp({
      core,
      logger: createLogger('silent'),
      snmpAgent: () => ({ state: 'failed', address: '127.0.0.1', port: 1161, reason: 'the port is in use by another program' }),
    });
    const res = await app.request('/readyz');
    const body = await expectModelError(res, 503, 'snmp_agent');
    expect(body.messages.join(' ')).toContain('SNMP agent is down: UDP port 1161: the port is in use');
    const listening = createApp({ core, logger: createLogger('silent'), snmpAgent: () => ({ state: 'listening', address: '127.0.0.1', port: 1161 }) }).app;
    expect(await (await listening.request('/readyz')).json()).toEqual({ status: 'ready', snmp_agent: 'listening' });
  });

  it('GET /readyz answers 503 with Retry-After once storage is gone', async () => {
    const app = await createTestApp();
    await app.close();
    const res = await app.call('GET', '/readyz');
    await expectModelError(res, 503);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await app.call('GET', '/healthz')).status).toBe(200);
  });

  it('public endpoints ignore a bad credential', async () => {
    for (const path of ['/api/v2', '/api/v2/openapi.json', '/api/v2/docs']) {
      expect((await t.call('GET', path, { auth: 'Bearer not-a-key' })).status, path).toBe(200);
    }
  });
});
