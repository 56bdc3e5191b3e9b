import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../src/testing/test-app.js';
import {
  addNas,
  addPool,
  addShare,
  expectModelError,
  joinPool,
  type Nas,
  type NasShare,
  type Pool,
  type ShareCollectionBody,
} from '../../src/testing/fixtures.js';

/**
 * List behaviour of the share endpoints (1, 8, 12): pagination, sort_by, the filter
 * operators of docs/api.md#lists, and 400 for bad parameters. One app with a fixed data set:
 * NAS `alpha` holds shares id 1..12, NAS `beta` holds 13..15; pool `gold` holds 2, 4, 13.
 */
let t: TestApp;
let alpha: Nas;
let beta: Nas;
let gold: Pool;
const shares: NasShare[] = [];

beforeAll(async () => {
  t = await createTestApp();
  alpha = await addNas(t, { name: 'alpha', type: 'nfs_v4' });
  beta = await addNas(t, { name: 'beta', type: 'nfs_v4' });
  gold = await addPool(t, { name: 'gold' });
  const names = ['delta', 'alpha', 'charlie', 'bravo', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima'];
  for (const [i, name] of names.entries()) {
    shares.push(
      await addShare(t, alpha, {
        name,
        path: `/vol/${i % 3}`,
        // options and username are null on some shares, to check that nulls sort lowest
        ...(i % 4 === 0 ? {} : { options: i % 2 === 0 ? 'rw' : 'ro' }),
        ...(i % 3 === 0 ? {} : { username: `user${i % 2}` }),
      }),
    );
  }
  for (const name of ['mike', 'november', 'oscar']) shares.push(await addShare(t, beta, { name, path: '/beta' }));
  await joinPool(t, gold, [2, 4, 13]);
});
afterAll(() => t.close());

async function list(query: string, base = '/api/v2/nas_shares'): Promise<ShareCollectionBody> {
  const res = await t.call('GET', `${base}${query === '' ? '' : `?${query}`}`, { auth: t.basic });
  const text = await res.text();
  expect(res.status, `${base}?${query}: ${text}`).toBe(200);
  return JSON.parse(text) as ShareCollectionBody;
}
const ids = (body: ShareCollectionBody) => body.nas_shares.map((share) => share.id);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('share list pagination', () => {
  it('returns at most 20 items by default, in id order, with the total count', async () => {
    const body = await list('');
    expect(body.count).toBe(15);
    expect(ids(body)).toEqual(range(1, 15));
    expect(body.nas_shares[0]).toEqual({ ...shares[0], password: null });
  });

  it('takes limit and offset; count stays the total before pagination', async () => {
    expect(await list('limit=4').then(ids)).toEqual([1, 2, 3, 4]);
    const page = await list('limit=4&offset=4');
    expect(ids(page)).toEqual([5, 6, 7, 8]);
    expect(page.count).toBe(15);
    expect(ids(await list('offset=13'))).toEqual([14, 15]);
    const past = await list('limit=5&offset=100');
    expect(past).toEqual({ count: 15, nas_shares: [] });
    expect(ids(await list('limit=100'))).toHaveLength(15);
  });

  it('takes page and per_page when neither limit nor offset is given', async () => {
    expect(ids(await list('per_page=5'))).toEqual([1, 2, 3, 4, 5]);
    expect(ids(await list('page=2&per_page=5'))).toEqual([6, 7, 8, 9, 10]);
    const last = await list('page=4&per_page=4');
    expect(ids(last)).toEqual([13, 14, 15]);
    expect(last.count).toBe(15);
    expect(ids(await list('page=1'))).toHaveLength(15);
  });

  it('paginates the NAS and pool families the same way, with their own counts', async () => {
    const byNas = await list('limit=5&offset=10', `/api/v2/nas/${alpha.id}/nas_shares`);
    expect(byNas.count).toBe(12);
    expect(ids(byNas)).toEqual([11, 12]);
    const byPool = await list('page=2&per_page=2', `/api/v2/pools/${gold.name}/nas_shares`);
    expect(byPool.count).toBe(3);
    expect(ids(byPool)).toEqual([13]);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=1.5', 'limit'],
    ['limit=-1', 'limit'],
    ['limit=', 'limit'],
    ['offset=-1', 'offset'],
    ['offset=x', 'offset'],
    ['limit=1&limit=2', 'limit'],
    ['page=0', 'page'],
    ['page=abc', 'page'],
    ['per_page=0', 'per_page'],
    ['per_page=101', 'per_page'],
    ['page=1&limit=5', 'page'],
    ['per_page=5&offset=5', 'page'],
    ['sort_by=unknown', 'sort_by'],
    ['sort_by=password', 'sort_by'],
    ['sort_by=password_enc', 'sort_by'],
    ['sort_by=name:sideways', 'sort_by'],
    ['sort_by=name:asc:desc', 'sort_by'],
    ['sort_by=name|', 'sort_by'],
    ['password=x', 'password'],
    ['id=abc', 'id'],
    ['id=~1%', 'id'],
    ['pool_id=>null', 'pool_id'],
    ['file_count=0', 'file_count'],
  ])('answers 400 for %s', async (query, attribute) => {
    for (const base of ['/api/v2/nas_shares', `/api/v2/nas/${alpha.id}/nas_shares`, `/api/v2/pools/${gold.id}/nas_shares`]) {
      const res = await t.call('GET', `${base}?${query}`, { auth: t.basic });
      await expectModelError(res, 400, attribute, 'invalid');
    }
  });

  it('answers 400 for a filter the family does not take (nas_id under a NAS, pool_id under a pool)', async () => {
    await expectModelError(await t.call('GET', `/api/v2/nas/${alpha.id}/nas_shares?nas_id=1`, { auth: t.basic }), 400, 'nas_id', 'invalid');
    await expectModelError(await t.call('GET', `/api/v2/pools/${gold.id}/nas_shares?pool_id=1`, { auth: t.basic }), 400, 'pool_id', 'invalid');
  });

  it('answers 400 for query parameters that are not attributes, naming the accepted ones (a typo never returns every row)', async () => {
    const res = await t.call('GET', '/api/v2/nas_shares?utm_source=mail&foo=bar', { auth: t.basic });
    const body = await expectModelError(res, 400, 'utm_source', 'invalid');
    expect(body.messages).toEqual([
      "unknown query parameter 'utm_source'; accepted: limit, offset, page, per_page, sort_by, id, name, path, options, username, health, last_tested_at, last_scanned_at, nas_id, pool_id",
    ]);
  });
});

describe('share list sort_by', () => {
  it('sorts ascending by default and descending with :desc', async () => {
    const byName = (await list('sort_by=name&limit=100')).nas_shares.map((share) => share.name);
    expect(byName).toEqual([...byName].sort());
    expect(byName[0]).toBe('alpha');
    const desc = (await list('sort_by=name:desc&limit=100')).nas_shares.map((share) => share.name);
    expect(desc).toEqual([...byName].reverse());
    expect((await list('sort_by=name:asc&limit=100')).nas_shares.map((share) => share.name)).toEqual(byName);
  });

  it('sorts on several attributes separated by a pipe, with id as the last tie-breaker', async () => {
    const body = await list('sort_by=path:desc|name&limit=100');
    const expected = [...shares].sort((a, b) => (a.path === b.path ? a.name.localeCompare(b.name) : a.path < b.path ? 1 : -1));
    expect(ids(body)).toEqual(expected.map((share) => share.id));
    // path alone has ties: id ascending breaks them
    const tied = await list('sort_by=path&limit=100');
    const byPathThenId = [...shares].sort((a, b) => (a.path === b.path ? a.id - b.id : a.path < b.path ? -1 : 1));
    expect(ids(tied)).toEqual(byPathThenId.map((share) => share.id));
  });

  it('sorts by id descending when asked, and pages stay stable under a sort with ties', async () => {
    expect(ids(await list('sort_by=id:desc&limit=3'))).toEqual([15, 14, 13]);
    const pages = [
      await list('sort_by=path&limit=4'),
      await list('sort_by=path&limit=4&offset=4'),
      await list('sort_by=path&limit=4&offset=8'),
      await list('sort_by=path&limit=4&offset=12'),
    ];
    const seen = pages.flatMap(ids);
    expect(new Set(seen).size).toBe(15);
    expect(seen).toEqual(ids(await list('sort_by=path&limit=100')));
  });

  it('puts nulls lowest: first ascending, last descending', async () => {
    const nullOptions = shares.filter((share) => share.options === null).map((share) => share.id);
    expect(nullOptions.length).toBeGreaterThan(0);
    const asc = await list('sort_by=options&limit=100');
    expect(ids(asc).slice(0, nullOptions.length)).toEqual(nullOptions);
    const desc = await list('sort_by=options:desc&limit=100');
    // ties break on id in the direction of the last key (so an index serves the order)
    expect(ids(desc).slice(-nullOptions.length)).toEqual([...nullOptions].reverse());
    const byPool = await list('sort_by=pool_id:desc|id:desc&limit=100');
    expect(ids(byPool).slice(0, 3)).toEqual([13, 4, 2]);
    expect(byPool.nas_shares.slice(3).every((share) => share.pool_id === null)).toBe(true);
  });

  it('sorts read-only numeric attributes', async () => {
    expect(ids(await list('sort_by=nas_id:desc&limit=3'))).toEqual([15, 14, 13]);
    expect((await list('sort_by=file_count|file_size_sum&limit=100')).count).toBe(15);
  });
});

describe('share list filters (docs/api.md#lists)', () => {
  it.each<[string, number[]]>([
    ['name=alpha', [2]],
    ['name==alpha', [2]],
    ['name=nothing', []],
    ['id=!=1', range(2, 15)],
    ['id=>9', range(10, 15)],
    ['id=>=10', range(10, 15)],
    ['id=<3', [1, 2]],
    ['id=<=3', [1, 2, 3]],
    ['id=><1|3|10', [1, 3, 10]],
    ['id=!><1|3|10', range(1, 15).filter((id) => ![1, 3, 10].includes(id))],
    ['name=~%o', [4, 5, 11]],
    ['name=~_ravo', [4]],
    ['name=~ALPHA', []],
    ['name=!~%o', range(1, 15).filter((id) => ![4, 5, 11].includes(id))],
    ['path=/beta', [13, 14, 15]],
    ['name=>m', [13, 14, 15]],
    ['options=null', [1, 5, 9, 13, 14, 15]],
    ['options=!=null', [2, 3, 4, 6, 7, 8, 10, 11, 12]],
    ['options=rw', [3, 7, 11]],
    ['options=!=rw', range(1, 15).filter((id) => ![3, 7, 11].includes(id))],
    ['username=user1', [2, 6, 8, 12]],
    ['username=~user%', [2, 3, 5, 6, 8, 9, 11, 12]],
    ['username=!~user%', [1, 4, 7, 10, 13, 14, 15]],
    ['pool_id=null', range(1, 15).filter((id) => ![2, 4, 13].includes(id))],
    ['pool_id=!=null', [2, 4, 13]],
    ['nas_id=2', [13, 14, 15]],
    ['nas_id=><1|2', range(1, 15)],
    ['id=>2&id=<5', [3, 4]],
    ['name=~%a%&path=/vol/0', [1, 4]],
  ])('GET /nas_shares?%s', async (query, expected) => {
    const body = await list(`${query}&limit=100`);
    expect(ids(body)).toEqual(expected);
    expect(body.count).toBe(expected.length);
  });

  it('compares numeric attributes as numbers, not as text (id=>9 includes 10)', async () => {
    const body = await list('id=>9');
    expect(ids(body)).toContain(10);
    expect(ids(body)).not.toContain(9);
    // as text, '10' < '9'; as numbers, 10 > 9
    expect(ids(await list('id=<10'))).toEqual(range(1, 9));
  });

  it('counts matching items before pagination', async () => {
    const body = await list('id=>5&limit=2&offset=1&sort_by=id:desc');
    expect(body.count).toBe(10);
    expect(ids(body)).toEqual([14, 13]);
  });

  it('filters the NAS family on pool_id and the pool family on nas_id', async () => {
    expect(ids(await list('pool_id=!=null', `/api/v2/nas/${alpha.name}/nas_shares`))).toEqual([2, 4]);
    expect(ids(await list(`pool_id=${gold.id}`, `/api/v2/nas/${beta.id}/nas_shares`))).toEqual([13]);
    expect(ids(await list(`nas_id=${alpha.id}`, `/api/v2/pools/${gold.id}/nas_shares`))).toEqual([2, 4]);
    expect(ids(await list('name=~%o%', `/api/v2/pools/${gold.id}/nas_shares`))).toEqual([4]);
  });

  it('lists pool members with their pool_id', async () => {
    const body = await list('', `/api/v2/pools/${gold.id}/nas_shares`);
    expect(body.count).toBe(3);
    expect(body.nas_shares.every((share) => share.pool_id === gold.id)).toBe(true);
  });

  it('takes a filter value with characters that need URL encoding', async () => {
    expect(ids(await list(`path=${encodeURIComponent('/vol/1')}&name=${encodeURIComponent('~e%')}`))).toEqual([5]);
  });
});

describe('share list errors', () => {
  it('answers 404 for an unknown NAS or pool', async () => {
    await expectModelError(await t.call('GET', '/api/v2/nas/999/nas_shares', { auth: t.basic }), 404, 'nas_id', 'not_found');
    await expectModelError(await t.call('GET', '/api/v2/pools/999/nas_shares', { auth: t.basic }), 404, 'pool_id', 'not_found');
  });
});
