import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemPrincipal } from '@dms/core';
import { createTestApp, type TestApp } from './testing/test-app.js';
import {
  addNas,
  addPool,
  addShare,
  addTrap,
  expectModelError,
  joinPool,
  readJson,
  unique,
  type Nas,
  type NasShare,
  type Pool,
  type ShareCollectionBody,
  type Trap,
} from './testing/fixtures.js';

/**
 * Every endpoint × every kind of caller (DESIGN §6: "a scope matrix over every endpoint gives
 * exactly the expected 401/403/2xx"). One app; each case builds its own fixtures, so DELETE
 * and POST cases never depend on each other.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

interface Fixture {
  nas: Nas;
  /** A NAS without shares, which DELETE /nas/{id} can remove. */
  emptyNas: Nas;
  pool: Pool;
  share: NasShare;
  trap: Trap;
}

const sharePassword = 'pw-matrix-secret';

async function seed(): Promise<Fixture> {
  const nas = await addNas(t);
  const emptyNas = await addNas(t);
  const pool = await addPool(t);
  const share = await addShare(t, nas, { password: sharePassword });
  await joinPool(t, pool, [share.id]);
  const trap = await addTrap(t);
  return { nas, emptyNas, pool, share: { ...share, pool_id: pool.id }, trap };
}

type ScopeText = `${string}/${string}`;
interface Endpoint {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** OpenAPI path, to check the table against the document. */
  documented: string;
  path(f: Fixture): string;
  scope: ScopeText;
  body?(f: Fixture): unknown;
  status: 200 | 201 | 204;
}

/** The one table: spec endpoints 1, 2, 5–22 and the NAS and pool resources (DESIGN §5.1). */
const endpoints: Endpoint[] = [
  { method: 'GET', documented: '/nas/{nas_id}/nas_shares', path: (f) => `/nas/${f.nas.id}/nas_shares`, scope: 'nas_shares/index', status: 200 },
  { method: 'POST', documented: '/nas/{nas_id}/nas_shares', path: (f) => `/nas/${f.nas.id}/nas_shares`, scope: 'nas_shares/create', body: () => ({ name: unique('new'), path: '/new', password: 'pw-new' }), status: 201 },
  { method: 'GET', documented: '/nas/{nas_id}/nas_shares/{nas_share_id}', path: (f) => `/nas/${f.nas.id}/nas_shares/${f.share.id}`, scope: 'nas_shares/show', status: 200 },
  { method: 'PUT', documented: '/nas/{nas_id}/nas_shares/{nas_share_id}', path: (f) => `/nas/${f.nas.id}/nas_shares/${f.share.id}`, scope: 'nas_shares/update', body: () => ({ path: '/updated' }), status: 200 },
  { method: 'DELETE', documented: '/nas/{nas_id}/nas_shares/{nas_share_id}', path: (f) => `/nas/${f.nas.id}/nas_shares/${f.share.id}`, scope: 'nas_shares/destroy', status: 204 },
  { method: 'GET', documented: '/nas_shares', path: () => '/nas_shares', scope: 'nas_shares/index', status: 200 },
  { method: 'GET', documented: '/nas_shares/{nas_share_id}', path: (f) => `/nas_shares/${f.share.id}`, scope: 'nas_shares/show', status: 200 },
  { method: 'PUT', documented: '/nas_shares/{nas_share_id}', path: (f) => `/nas_shares/${f.share.id}`, scope: 'nas_shares/update', body: () => ({ path: '/updated' }), status: 200 },
  { method: 'DELETE', documented: '/nas_shares/{nas_share_id}', path: (f) => `/nas_shares/${f.share.id}`, scope: 'nas_shares/destroy', status: 204 },
  { method: 'GET', documented: '/pools/{pool_id}/nas_shares', path: (f) => `/pools/${f.pool.id}/nas_shares`, scope: 'nas_shares/index', status: 200 },
  { method: 'GET', documented: '/pools/{pool_id}/nas_shares/{nas_share_id}', path: (f) => `/pools/${f.pool.id}/nas_shares/${f.share.id}`, scope: 'nas_shares/show', status: 200 },
  { method: 'PUT', documented: '/pools/{pool_id}/nas_shares/{nas_share_id}', path: (f) => `/pools/${f.pool.id}/nas_shares/${f.share.id}`, scope: 'nas_shares/update', body: () => ({ path: '/updated' }), status: 200 },
  { method: 'DELETE', documented: '/pools/{pool_id}/nas_shares/{nas_share_id}', path: (f) => `/pools/${f.pool.id}/nas_shares/${f.share.id}`, scope: 'nas_shares/destroy', status: 204 },
  { method: 'GET', documented: '/snmp/traps', path: () => '/snmp/traps', scope: 'traps/index', status: 200 },
  { method: 'POST', documented: '/snmp/traps', path: () => '/snmp/traps', scope: 'traps/create', body: () => ({ manager: '198.51.100.7' }), status: 201 },
  { method: 'GET', documented: '/snmp/traps/{snmp_trap_id}', path: (f) => `/snmp/traps/${f.trap.snmp_trap_id}`, scope: 'traps/show', status: 200 },
  { method: 'PUT', documented: '/snmp/traps/{snmp_trap_id}', path: (f) => `/snmp/traps/${f.trap.snmp_trap_id}`, scope: 'traps/update', body: () => ({ community: 'changed' }), status: 200 },
  { method: 'DELETE', documented: '/snmp/traps/{snmp_trap_id}', path: (f) => `/snmp/traps/${f.trap.snmp_trap_id}`, scope: 'traps/destroy', status: 204 },
  { method: 'GET', documented: '/snmp/server_configuration', path: () => '/snmp/server_configuration', scope: 'server_configuration/show', status: 200 },
  { method: 'PUT', documented: '/snmp/server_configuration', path: () => '/snmp/server_configuration', scope: 'server_configuration/update', body: () => ({ location: unique('room') }), status: 200 },
  { method: 'GET', documented: '/nas', path: () => '/nas', scope: 'nas/index', status: 200 },
  { method: 'POST', documented: '/nas', path: () => '/nas', scope: 'nas/create', body: () => ({ name: unique('new-nas'), host: 'h.example', type: 'nfs_v4' }), status: 201 },
  { method: 'GET', documented: '/nas/{nas_id}', path: (f) => `/nas/${f.nas.id}`, scope: 'nas/show', status: 200 },
  { method: 'PUT', documented: '/nas/{nas_id}', path: (f) => `/nas/${f.nas.id}`, scope: 'nas/update', body: () => ({ comment: 'updated' }), status: 200 },
  { method: 'DELETE', documented: '/nas/{nas_id}', path: (f) => `/nas/${f.emptyNas.id}`, scope: 'nas/destroy', status: 204 },
  { method: 'GET', documented: '/pools', path: () => '/pools', scope: 'pools/index', status: 200 },
  { method: 'POST', documented: '/pools', path: () => '/pools', scope: 'pools/create', body: () => ({ name: unique('new-pool') }), status: 201 },
  { method: 'GET', documented: '/pools/{pool_id}', path: (f) => `/pools/${f.pool.id}`, scope: 'pools/show', status: 200 },
  { method: 'PUT', documented: '/pools/{pool_id}', path: (f) => `/pools/${f.pool.id}`, scope: 'pools/update', body: (f) => ({ comment: 'updated', nas_share_ids: [f.share.id] }), status: 200 },
  { method: 'DELETE', documented: '/pools/{pool_id}', path: (f) => `/pools/${f.pool.id}`, scope: 'pools/destroy', status: 204 },
];

/** Documented operations that other suites own (share test and scan jobs, test traps). */
const coveredElsewhere = new Set([
  'get /nas/{nas_id}/nas_shares/-/test',
  'put /nas/{nas_id}/nas_shares/-/test',
  'get /nas_shares/{nas_share_id}/test',
  'put /nas_shares/{nas_share_id}/test',
  'get /nas_shares/{nas_share_id}/scan',
  'put /nas_shares/{nas_share_id}/scan',
  'post /snmp/traps/{snmp_trap_id}/test',
]);

const allScopes = [...new Set(endpoints.map((endpoint) => endpoint.scope))];
const label = (e: Endpoint) => `${e.method} ${e.documented}`;
const spaced = (scope: ScopeText) => scope.replace('/', ' / ');

/** What a denied request must not have touched: this case's fixtures and every count. */
async function state(f: Fixture): Promise<string> {
  const p = systemPrincipal;
  const safe = async <T>(read: () => Promise<T>) => read().catch((error: unknown) => String(error));
  return JSON.stringify([
    await safe(() => t.core.nas.show(p, String(f.nas.id))),
    await safe(() => t.core.nas.show(p, String(f.emptyNas.id))),
    await safe(() => t.core.pools.show(p, String(f.pool.id))),
    await safe(() => t.core.shares.show(p, { kind: 'all' }, String(f.share.id))),
    await safe(() => t.core.traps.show(p, f.trap.snmp_trap_id)),
    await t.core.snmpConfig.show(p),
    (await t.core.nas.list(p, {})).count,
    (await t.core.pools.list(p, {})).count,
    (await t.core.shares.list(p, { kind: 'all' }, {})).count,
    (await t.core.traps.list(p, {})).count,
  ]);
}

async function request(e: Endpoint, f: Fixture, auth: string | undefined): Promise<Response> {
  const body = e.body?.(f);
  return t.call(e.method, `/api/v2${e.path(f)}`, { ...(auth === undefined ? {} : { auth }), ...(body === undefined ? {} : { body }) });
}

async function expectSuccess(e: Endpoint, res: Response): Promise<void> {
  const text = await res.text();
  expect(res.status, `${label(e)}: ${text}`).toBe(e.status);
  if (e.status === 204) expect(text).toBe('');
  else expect(typeof JSON.parse(text)).toBe('object');
}

/** The resources of the spec and of DESIGN §5.1; administration endpoints have their own suites. */
const resourcePaths = /^\/(?:nas|nas_shares|pools|snmp)(?:\/|$)/;

describe('the table covers every documented resource operation', () => {
  it('lists each NAS, share, pool and SNMP operation of openapi.json once, unless another suite owns it', async () => {
    const doc = await readJson<{ paths: Record<string, Record<string, unknown>> }>(await t.call('GET', '/api/v2/openapi.json'));
    const operations = Object.entries(doc.paths)
      .filter(([path]) => resourcePaths.test(path))
      .flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method} ${path}`));
    const inTable = endpoints.map((e) => `${e.method.toLowerCase()} ${e.documented}`);
    expect(new Set(inTable).size).toBe(inTable.length);
    expect(operations.filter((op) => !coveredElsewhere.has(op)).sort()).toEqual([...inTable].sort());
  });
});

describe.each(endpoints.map((e) => [label(e), e] as const))('%s', (_name, e) => {
  it('no credential → 401 with WWW-Authenticate, nothing changed', async () => {
    const f = await seed();
    const before = await state(f);
    const res = await request(e, f, undefined);
    await expectModelError(res, 401, 'authorization');
    expect(res.headers.get('www-authenticate')).toMatch(/Basic/);
    expect(await state(f)).toBe(before);
  });

  it('unknown API key → 401, nothing changed', async () => {
    const f = await seed();
    const before = await state(f);
    const res = await request(e, f, 'Bearer dms_neverIssuedKey00000000000000000000000000000');
    await expectModelError(res, 401, 'authorization');
    expect(res.headers.get('www-authenticate')).toMatch(/Bearer/);
    expect(await state(f)).toBe(before);
  });

  it(`key with every other scope but ${e.scope} → 403 naming it, nothing changed`, async () => {
    const f = await seed();
    const before = await state(f);
    const [controller] = e.scope.split('/');
    const key = await t.bearer(...allScopes.filter((scope) => scope !== e.scope), `${controller}/get_password` as ScopeText);
    const res = await request(e, f, key);
    const body = await expectModelError(res, 403, 'scope', 'forbidden');
    expect(body.messages.join(' ')).toContain(spaced(e.scope));
    expect(await state(f)).toBe(before);
  });

  it(`key with exactly ${e.scope} → ${e.status}`, async () => {
    const f = await seed();
    await expectSuccess(e, await request(e, f, await t.bearer(e.scope)));
  });

  it(`key with ${e.scope.split('/')[0]}/* → ${e.status}`, async () => {
    const f = await seed();
    await expectSuccess(e, await request(e, f, await t.bearer(`${e.scope.split('/')[0]}/*` as ScopeText)));
  });

  it(`*/* key → ${e.status}`, async () => {
    const f = await seed();
    await expectSuccess(e, await request(e, f, await t.bearer('*/*')));
  });

  it(`Basic → ${e.status}`, async () => {
    const f = await seed();
    await expectSuccess(e, await request(e, f, t.basic));
  });
});

describe('public endpoints need no credential', () => {
  it.each(['/api/v2', '/api/v2/openapi.json', '/api/v2/docs', '/healthz', '/readyz'])('GET %s → 200 without, with a bad and with a good credential', async (path) => {
    for (const auth of [undefined, 'Bearer dms_neverIssued', t.basic]) {
      const res = await t.call('GET', path, auth === undefined ? {} : { auth });
      expect(res.status, `${path} ${auth ?? 'none'}`).toBe(200);
    }
  });
});

describe('share password visibility (DESIGN §5.5)', () => {
  const reads = [
    { name: 'GET /nas/{nas_id}/nas_shares/{id}', path: (f: Fixture) => `/api/v2/nas/${f.nas.id}/nas_shares/${f.share.id}`, list: false },
    { name: 'GET /nas_shares/{id}', path: (f: Fixture) => `/api/v2/nas_shares/${f.share.id}`, list: false },
    { name: 'GET /pools/{pool_id}/nas_shares/{id}', path: (f: Fixture) => `/api/v2/pools/${f.pool.id}/nas_shares/${f.share.id}`, list: false },
    { name: 'GET /nas/{nas_id}/nas_shares', path: (f: Fixture) => `/api/v2/nas/${f.nas.id}/nas_shares`, list: true },
    { name: 'GET /nas_shares', path: (f: Fixture) => `/api/v2/nas_shares?id=${f.share.id}`, list: true },
    { name: 'GET /pools/{pool_id}/nas_shares', path: (f: Fixture) => `/api/v2/pools/${f.pool.id}/nas_shares`, list: true },
  ];
  const readers: Array<{ who: string; scopes: ScopeText[] | 'basic'; sees: boolean }> = [
    { who: 'Basic (a user)', scopes: 'basic', sees: true },
    { who: 'nas_shares/show + index + nas_shares/get_password', scopes: ['nas_shares/show', 'nas_shares/index', 'nas_shares/get_password'], sees: true },
    { who: 'nas_shares/show + index + */get_password', scopes: ['nas_shares/show', 'nas_shares/index', '*/get_password'], sees: true },
    { who: '*/*', scopes: ['*/*'], sees: false },
    { who: 'nas_shares/*', scopes: ['nas_shares/*'], sees: false },
    { who: 'nas_shares/show + index', scopes: ['nas_shares/show', 'nas_shares/index'], sees: false },
    { who: 'nas_shares/* + traps/get_password', scopes: ['nas_shares/*', 'traps/get_password'], sees: false },
  ];

  for (const read of reads) {
    describe(read.name, () => {
      it.each(readers)('$who', async ({ scopes, sees }) => {
        const f = await seed();
        const auth = scopes === 'basic' ? t.basic : await t.bearer(...scopes);
        const res = await t.call('GET', read.path(f), { auth });
        const text = await res.text();
        expect(res.status, text).toBe(200);
        const parsed = JSON.parse(text) as NasShare | ShareCollectionBody;
        const share = read.list ? (parsed as ShareCollectionBody).nas_shares.find((s) => s.id === f.share.id) : (parsed as NasShare);
        expect(share, text).toBeDefined();
        if (sees) {
          expect(share!.password).toBe(sharePassword);
        } else {
          expect(share).not.toHaveProperty('password');
          expect(text).not.toContain(sharePassword);
        }
      });
    });
  }

  it('get_password alone does not grant show or index', async () => {
    const f = await seed();
    for (const scope of ['nas_shares/get_password', '*/get_password'] as const) {
      const key = await t.bearer(scope);
      await expectModelError(await t.call('GET', `/api/v2/nas_shares/${f.share.id}`, { auth: key }), 403, 'scope', 'forbidden');
      await expectModelError(await t.call('GET', '/api/v2/nas_shares', { auth: key }), 403, 'scope', 'forbidden');
    }
  });

  it('create and update answers carry the password only for a caller who may see it', async () => {
    const f = await seed();
    const writer = await t.bearer('nas_shares/create', 'nas_shares/update');
    const created = await t.call('POST', `/api/v2/nas/${f.nas.id}/nas_shares`, { auth: writer, body: { name: unique('w'), path: '/w', password: 'pw-written' } });
    expect(created.status).toBe(201);
    expect(await readJson<NasShare>(created)).not.toHaveProperty('password');
    const updated = await t.call('PUT', `/api/v2/nas_shares/${f.share.id}`, { auth: writer, body: { password: 'pw-rewritten' } });
    expect(updated.status).toBe(200);
    expect(await updated.text()).not.toContain('pw-rewritten');
    const privileged = await t.bearer('nas_shares/update', 'nas_shares/get_password');
    const shown = await t.call('PUT', `/api/v2/nas_shares/${f.share.id}`, { auth: privileged, body: { username: 'u' } });
    expect((await readJson<NasShare>(shown)).password).toBe('pw-rewritten');
  });
});
