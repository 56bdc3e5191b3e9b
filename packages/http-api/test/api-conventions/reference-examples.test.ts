import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretChange, systemPrincipal, type AuditEvent } from '@dms/core';
import { openApiDocument } from '../../src/contracts/openapi-document.js';
import { adminPassword, adminUsername, createTestApp, type TestApp } from '../../src/testing/test-app.js';
import { readJson, seedResourceWorld, type ResourceWorld } from '../../src/testing/fixtures.js';

/**
 * Issue 26 item 5: the reference page's "Test request" sends an operation's examples as they are
 * (path parameters and body) to the server that serves the page. Here every write operation's
 * examples are sent to a running server holding data: each with a path parameter is 404 (its
 * placeholder names no record), none is a 5xx, and afterwards the audit trail, which records a
 * change of any secret the server keeps as "changed", shows no secret changed; the share's
 * password, the admin's password, the settings and the SNMP configuration are as they were.
 */

interface Operation {
  operationId: string;
  parameters?: Array<{ name: string; in: string; example?: string }>;
  requestBody?: { content: Record<string, { examples?: Record<string, { value: unknown }> }> };
}

const document = openApiDocument() as unknown as { servers: Array<{ url: string }>; paths: Record<string, Record<string, Operation>> };
const writes = Object.entries(document.paths)
  .flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ method, path, op })))
  .filter(({ method }) => method !== 'get')
  // The login last: it checks a credential, and its failure must not throttle the requests before it.
  .sort((a, b) => Number(a.op.operationId === 'login') - Number(b.op.operationId === 'login'));

const sharePassword = 'Sh4re-example-untouched';
let t: TestApp;
let world: ResourceWorld;
let lastEventBefore = 0;
const before: Record<string, unknown> = {};

async function read(path: string): Promise<unknown> {
  const res = await t.call('GET', `/api/v2${path}`, { auth: t.basic });
  expect(res.status, path).toBe(200);
  return readJson(res);
}

beforeAll(async () => {
  t = await createTestApp();
  world = await seedResourceWorld(t, { share: { password: sharePassword } });
  before['settings'] = await read('/settings');
  before['snmp'] = await read('/snmp/server_configuration');
  const { audit_events } = await t.core.auditEvents.list(systemPrincipal, { sort_by: ['id:desc'], limit: ['1'] });
  lastEventBefore = audit_events[0]?.id ?? 0;
});
afterAll(async () => {
  await t?.close();
});

describe('the examples of every write operation, sent as the reference page sends them', () => {
  it('are sent to this server: the document names it relatively, under /api/v2', () => {
    expect(document.servers.map((server) => server.url)).toEqual(['/api/v2']);
  });

  it('answer 404 where a path names a record, never 5xx, and change no stored secret', async () => {
    const answers: string[] = [];
    /** Each request's body by its X-Request-Id, which its audit event carries. */
    const sent = new Map<string, unknown>();
    for (const { method, path, op } of writes) {
      const pathParams = (op.parameters ?? []).filter((p) => p.in === 'path');
      const url = path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(pathParams.find((p) => p.name === name)?.example ?? ''));
      const examples = Object.values(op.requestBody?.content['application/json']?.examples ?? {});
      for (const body of examples.length > 0 ? examples.map((example) => example.value) : [undefined]) {
        const res = await t.call(method.toUpperCase(), `/api/v2${url}`, { auth: t.basic, ...(body === undefined ? {} : { body }) });
        const text = await res.text();
        answers.push(`${method} ${path}: ${res.status}`);
        sent.set(res.headers.get('x-request-id') ?? '', body);
        expect(res.status, `${method} ${url} ${text}`).toBeLessThan(500);
        if (pathParams.length > 0) expect(res.status, `${method} ${url}: the placeholder must name no record; ${text}`).toBe(404);
      }
    }
    expect(answers.length).toBeGreaterThanOrEqual(writes.length);

    const { audit_events: events } = await t.core.auditEvents.list(systemPrincipal, { id: [`>${lastEventBefore}`], sort_by: ['id'], limit: ['100'] });
    // A new trap target's community is recorded as set when it is the default, `public`: a
    // create counts only for the secrets its body sent; a change of an existing record always.
    const bodySent = (event: AuditEvent, field: string) => {
      const body = sent.get(event.request_id ?? '');
      return typeof body === 'object' && body !== null && Object.hasOwn(body, field);
    };
    const secretChanges = (events as AuditEvent[]).flatMap((event) =>
      Object.entries(event.changes ?? {})
        .filter(([field, change]) => change === secretChange && (event.action !== 'create' || bodySent(event, field)))
        .map(([field]) => `${event.action} ${event.resource?.type} ${event.resource?.name}: ${field}`),
    );
    expect(secretChanges).toEqual([]);
  });

  it('left the share with its password, the admin with theirs, the settings and the SNMP configuration as they were', async () => {
    const share = (await read(`/nas_shares/${world.share.id}`)) as { password?: string; path: string; name: string };
    expect(share).toMatchObject({ password: sharePassword, path: world.share.path, name: world.share.name });
    expect(await read('/settings')).toEqual(before['settings']);
    expect(await read('/snmp/server_configuration')).toEqual(before['snmp']);
    const admin = await t.call('GET', '/api/v2/api_keys/current', { auth: `Basic ${Buffer.from(`${adminUsername}:${adminPassword}`).toString('base64')}` });
    expect(admin.status).toBe(200);
  });
});
