import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemPrincipal } from '@dms/core';
import { createTestApp, type TestApp } from '../../src/testing/test-app.js';
import { readJson } from '../../src/testing/fixtures.js';

/** Issue 25 item 5: what a self-hoster looks for: the version, / to the API reference, what deleting a pool releases. */

const packageVersion = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('the server says its version and sends / to the API reference', () => {
  it('GET /api/v2 carries the version of package.json, without a credential', async () => {
    const res = await t.call('GET', '/api/v2');
    expect(res.status).toBe(200);
    expect(await readJson(res)).toMatchObject({ service: 'dms', version: packageVersion, api_version: 2 });
  });

  it('the metrics carry dms_build_info with the version as a label', async () => {
    const text = await (await t.call('GET', '/metrics', { auth: t.basic })).text();
    expect(text).toContain('# TYPE dms_build_info gauge');
    expect(text).toContain(`dms_build_info{version="${packageVersion}"} 1`);
  });

  it('GET / answers 302 to /api/v2/docs, without a credential, and the page is there', async () => {
    const res = await t.call('GET', '/');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/api/v2/docs');
    expect(res.headers.get('x-request-id')).toBeTruthy();
    const page = await t.call('GET', res.headers.get('location')!);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
  });
});

describe('deleting a pool says how many shares it released; deleting a NAS with shares is refused', () => {
  it('DELETE /pools/{id} answers 204 without a body and Dms-Released-Shares; the shares stay, in no pool; the audit event lists them', async () => {
    const { core } = t;
    const nas = await core.nas.create(systemPrincipal, { name: 'release-filer', host: 'localhost', type: 'local' });
    const a = await core.shares.create(systemPrincipal, String(nas.id), { name: 'release-a', path: 'a' });
    const b = await core.shares.create(systemPrincipal, String(nas.id), { name: 'release-b', path: 'b' });
    await core.pools.create(systemPrincipal, { name: 'release-full', type: 'primary', content: 'nas' });
    await core.pools.update(systemPrincipal, 'release-full', { nas_share_ids: [a.id, b.id] });
    await core.pools.create(systemPrincipal, { name: 'release-empty', type: 'scratch', content: 'nas' });

    const full = await t.call('DELETE', '/api/v2/pools/release-full', { auth: t.basic });
    expect(full.status).toBe(204);
    expect(await full.text()).toBe('');
    expect(full.headers.get('dms-released-shares')).toBe('2');
    for (const id of [a.id, b.id]) expect(await core.shares.show(systemPrincipal, { kind: 'all' }, String(id))).toMatchObject({ pool_id: null });

    const empty = await t.call('DELETE', '/api/v2/pools/release-empty', { auth: t.basic });
    expect(empty.status).toBe(204);
    expect(empty.headers.get('dms-released-shares')).toBe('0');

    const events = await readJson<{ audit_events: Array<{ resource: { name: string }; changes: unknown }> }>(
      await t.call('GET', '/api/v2/audit_events?action=delete&resource_type=pools&sort_by=id', { auth: t.basic }),
    );
    const byName = new Map(events.audit_events.map((event) => [event.resource.name, event.changes]));
    expect(byName.get('release-full')).toEqual({ nas_share_ids: { from: [a.id, b.id], to: [] } });
    expect(byName.get('release-empty')).toBeNull();

    // A NAS takes its shares with it, so one that still has shares is refused, saying how many.
    const refused = await t.call('DELETE', `/api/v2/nas/${nas.id}`, { auth: t.basic });
    expect(refused.status).toBe(409);
    expect(await readJson(refused)).toMatchObject({ details: { nas_shares: [{ error: 'frozen', count: 2 }] } });
  });

  it('a page on another origin may read Dms-Released-Shares', async () => {
    await t.core.corsRules.create(systemPrincipal, { origins: ['https://console.example'], path: '*', methods: ['DELETE'] });
    await t.core.pools.create(systemPrincipal, { name: 'release-cors', type: 'scratch', content: 'nas' });
    const res = await t.call('DELETE', '/api/v2/pools/release-cors', { auth: t.basic, headers: { origin: 'https://console.example' } });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-expose-headers')).toContain('Dms-Released-Shares');
  });
});
