import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/contracts/openapi-document.js';
import { restOperations } from '../../src/operations/rest-operations.js';
import type { OperationId } from '../../src/operations/rest-operations.js';
import { createTestApp, type TestApp } from '../../src/testing/test-app.js';
import { addNas, addPool, addShare, addTrap, joinPool, readJson, type ResourceWorld } from '../../src/testing/fixtures.js';
import { operationPath, operationRequests } from '../../src/testing/operation-requests.js';

/**
 * Issue 26 item 4: the document is as strict as the server. Every bounded integer query parameter
 * the document declares (limit, offset, page, per_page, wait) is sent at its documented minimum
 * and maximum (2xx) and one past each (400 naming it); every list's `sort_by` terms are all
 * accepted and every other attribute of its items refused; every documented filter is accepted
 * and every other attribute refused. The numbers and names are read from the document only, so
 * it cannot drift from what the server takes.
 */

interface Schema {
  type?: string;
  minimum?: number;
  maximum?: number;
  enum?: string[];
  items?: Schema;
  properties?: Record<string, Schema>;
  $ref?: string;
  description?: string;
}
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema: Schema;
  description?: string;
}
interface Operation {
  operationId: OperationId;
  parameters?: Parameter[];
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}

const document = openApiDocument() as unknown as { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };
const gets = Object.values(document.paths).flatMap((item) => (item['get'] ? [item['get']] : []));
const queryOf = (op: Operation) => (op.parameters ?? []).filter((p) => p.in === 'query');
const lists = gets.filter((op) => queryOf(op).some((p) => p.name === 'sort_by'));

function resolve(schema: Schema | undefined): Schema {
  const ref = schema?.$ref;
  return ref ? (document.components.schemas[ref.replace('#/components/schemas/', '')] ?? {}) : (schema ?? {});
}

/** The attributes of a list's items, from its 200 answer: `{ count, [key]: item[] }`. */
function itemAttributes(op: Operation): string[] {
  const collection = resolve(op.responses['200']?.content?.['application/json']?.schema);
  const array = Object.values(collection.properties ?? {}).find((property) => property.type === 'array');
  return Object.keys(resolve(array?.items).properties ?? {});
}

/** A filter value of the kind the parameter's description says its values are. */
function filterValue(parameter: Parameter): string {
  const kind = /the value is (.+)$/.exec(parameter.description ?? '')?.[1] ?? '';
  if (kind === 'an integer' || kind.startsWith('a decimal')) return '>=0';
  if (kind === 'true or false') return 'true';
  const oneOf = /^one of ([^,]+)/.exec(kind);
  if (oneOf) return oneOf[1]!;
  return '~%';
}

const root = mkdtempSync(join(tmpdir(), 'dms-documented-query-'));
let t: TestApp;
let world: ResourceWorld;
/** Each job-following operation's finished job: a long-poll on it answers at once. */
const jobs = new Map<OperationId, string>();

async function finish(jobId: string): Promise<void> {
  for (;;) {
    const res = await t.call('GET', `/api/v2/jobs/${jobId}?wait=5`, { auth: t.basic });
    if (res.status === 200) return;
    expect(res.status, await res.text()).toBe(202);
  }
}

/** The rows' unsaved share is on a network NAS; this world's NAS is local, with the share's directory under its root. */
async function testUnsavedLocalShare(app: TestApp, f: ResourceWorld): Promise<Partial<ResourceWorld>> {
  const res = await app.call('PUT', `/api/v2/nas/${f.nas.id}/nas_shares/-/test`, { auth: app.basic, body: { name: 'probe', path: 'data' } });
  expect(res.status, await res.clone().text()).toBe(202);
  return { jobId: (await readJson<{ job_id: string }>(res)).job_id };
}

/** The operation's path and its required query (job_id) in the world, without its optional parameters. */
async function target(op: Operation): Promise<{ path: string; required: string[] }> {
  const contract = restOperations.find((c) => c.operationId === op.operationId)!;
  const row = operationRequests[op.operationId];
  let f = world;
  const prepare = op.operationId === 'showUnsavedNasShareTest' ? testUnsavedLocalShare : row.prepare;
  if (prepare && !jobs.has(op.operationId)) {
    f = { ...world, ...(await prepare(t, world)) };
    if (f.jobId) {
      await finish(f.jobId);
      jobs.set(op.operationId, f.jobId);
    }
  }
  f = { ...f, ...(jobs.has(op.operationId) ? { jobId: jobs.get(op.operationId)! } : {}) };
  const requiredNames = new Set(
    queryOf(op)
      .filter((p) => p.required)
      .map((p) => p.name),
  );
  const required = (row.query?.(f) ?? '').split('&').filter((pair) => requiredNames.has(pair.split('=')[0]!));
  return { path: operationPath(contract, row.params?.(f) ?? {}), required };
}

async function send(op: Operation, query: string[]): Promise<Response> {
  const { path, required } = await target(op);
  return t.call('GET', `${path}?${[...required, ...query].join('&')}`, { auth: t.basic });
}

async function expectRefused(res: Response, parameter: string, why: string): Promise<void> {
  const text = await res.text();
  expect(res.status, `${why}: ${text}`).toBe(400);
  expect(Object.keys((JSON.parse(text) as { details: object }).details), why).toContain(parameter);
}

beforeAll(async () => {
  mkdirSync(join(root, 'data'));
  writeFileSync(join(root, 'data', 'a.txt'), 'abc');
  t = await createTestApp({ localRoots: [root] });
  const nas = await addNas(t, { type: 'local', host: 'localhost' });
  const pool = await addPool(t);
  const share = await addShare(t, nas, { path: 'data' });
  await joinPool(t, pool, [share.id]);
  world = { nas, emptyNas: await addNas(t), pool, share: { ...share, pool_id: pool.id }, trap: await addTrap(t) };
  await t.engine.start();
});
afterAll(async () => {
  await t?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('the bounds of every integer query parameter, as documented', () => {
  const bounded = gets.flatMap((op) =>
    queryOf(op)
      .filter((p) => p.schema.type === 'integer' && p.schema.minimum !== undefined && p.schema.maximum !== undefined)
      .map((p) => ({ op, name: p.name, min: p.schema.minimum!, max: p.schema.maximum! })),
  );

  it('types limit, offset, page, per_page of every list and wait of every job as bounded integers', () => {
    for (const op of lists) {
      expect(
        bounded.filter((b) => b.op === op).map((b) => b.name),
        op.operationId,
      ).toEqual(expect.arrayContaining(['limit', 'offset', 'page', 'per_page']));
    }
    const waits = bounded.filter((b) => b.name === 'wait').map((b) => b.op.operationId);
    expect(waits.sort()).toEqual(['showJob', 'showNasShareScan', 'showNasShareTest', 'showUnsavedNasShareTest']);
    expect(bounded.find((b) => b.name === 'page')?.max).toBe(Math.floor(Number.MAX_SAFE_INTEGER / 100));
  });

  it.each(bounded.map((b) => [`${b.op.operationId} ${b.name} ${b.min}..${b.max}`, b] as const))(
    '%s: the bounds answer 2xx, one past each 400',
    async (_, b) => {
      for (const value of [b.min, b.max]) {
        const res = await send(b.op, [`${b.name}=${value}`]);
        expect([200, 202], `${b.name}=${value}: ${await res.clone().text()}`).toContain(res.status);
      }
      // One past the maximum as the client would write it (2^53 is past every maximum here, and exact).
      await expectRefused(await send(b.op, [`${b.name}=${BigInt(b.max) + 1n}`]), b.name, `${b.name}=max+1`);
      await expectRefused(await send(b.op, [`${b.name}=${b.min - 1}`]), b.name, `${b.name}=min-1`);
    },
  );
});

describe('sort_by and the filters of every list, as documented', () => {
  it.each(lists.map((op) => [op.operationId, op] as const))(
    '%s: every documented sort term and filter is taken, every other attribute refused',
    async (_, op) => {
      const sortBy = queryOf(op).find((p) => p.name === 'sort_by')!;
      const terms = sortBy.schema.items?.enum ?? [];
      expect(terms.length, 'sort_by is an enum').toBeGreaterThan(0);
      const pipe = await send(op, [`sort_by=${encodeURIComponent(terms.join('|'))}`]);
      expect(pipe.status, await pipe.clone().text()).toBe(200);
      const sortable = new Set(terms.map((term) => term.split(':')[0]!));
      for (const attribute of itemAttributes(op).filter((name) => !sortable.has(name))) {
        await expectRefused(await send(op, [`sort_by=${attribute}`]), 'sort_by', `sort_by=${attribute}`);
      }

      const reserved = new Set(['limit', 'offset', 'page', 'per_page', 'sort_by']);
      const filters = queryOf(op).filter((p) => !reserved.has(p.name) && !p.required);
      for (const filter of filters) {
        const res = await send(op, [`${filter.name}=${encodeURIComponent(filterValue(filter))}`]);
        expect(res.status, `${filter.name}: ${await res.clone().text()}`).toBe(200);
        await readJson(res);
      }
      const filterable = new Set(filters.map((p) => p.name));
      for (const attribute of itemAttributes(op).filter((name) => !filterable.has(name))) {
        await expectRefused(await send(op, [`${attribute}=x`]), attribute, `filter ${attribute}`);
      }
    },
  );

  it('a share list documents no sort on password, and no filter on it', () => {
    for (const op of lists.filter((l) => /NasShares/.test(l.operationId))) {
      const names = queryOf(op).map((p) => p.name);
      expect(names, op.operationId).not.toContain('password');
      expect(queryOf(op).find((p) => p.name === 'sort_by')?.schema.items?.enum, op.operationId).not.toContain('password');
      expect(itemAttributes(op), op.operationId).toContain('password');
    }
  });
});
