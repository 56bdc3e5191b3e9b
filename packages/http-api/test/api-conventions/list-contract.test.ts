import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemPrincipal } from '@dms/core';
import { createTestApp, type TestApp } from '../../src/testing/test-app.js';
import { addCorsRule, addNas, addPool, addShare, addTrap, addUser, expectModelError, joinPool, type Nas, type Pool } from '../../src/testing/fixtures.js';

/**
 * One list contract on every list (docs/decisions/014-one-list-contract.md): both pagination schemes, their bounds,
 * sort_by, the filter operators, unknown parameters and `count`, run as one table over all
 * ten list endpoints. Every list holds 25 or more rows, so every one has several pages.
 */
type Item = Record<string, unknown>;

interface ListCase {
  /** The documented path. */
  name: string;
  /** The path below /api/v2, known once the fixtures exist. */
  path(): string;
  /** The key of the items in the answer (`{ count, nas: [...] }`). */
  key: string;
  /** The attribute that is the item's id. */
  id: string;
  total: number;
  filterable: string[];
  sortable: string[];
  sort: { attribute: string; direction: 'asc' | 'desc' };
  /** A filter with an operator (`value` is sent URL-encoded), and which items it must return. */
  filter: { name: string; value(): string; matches(item: Item): boolean };
  /** A secret or an attribute of the item that must not work as a filter. */
  refused: string;
}

const pagination = ['limit', 'offset', 'page', 'per_page', 'sort_by'];
const shareFields = [
  'id',
  'nas_id',
  'pool_id',
  'name',
  'path',
  'options',
  'username',
  'file_count',
  'file_size_sum',
  'health',
  'last_tested_at',
  'last_scanned_at',
];
/** The share filters every family takes; each adds the parent it is not under. */
const shareFilters = ['id', 'name', 'path', 'options', 'username', 'health', 'last_tested_at', 'last_scanned_at'];
const maxPage = Math.floor(Number.MAX_SAFE_INTEGER / 100);
const perSeries = 25;

let t: TestApp;
let holder: Nas;
let members: Pool;
const text = (value: unknown) => String(value);

const cases: ListCase[] = [
  {
    name: '/nas',
    path: () => '/nas',
    key: 'nas',
    id: 'id',
    total: perSeries,
    filterable: ['id', 'name', 'host', 'type', 'comment', 'price'],
    sortable: ['id', 'name', 'host', 'type', 'comment', 'price'],
    sort: { attribute: 'host', direction: 'desc' },
    filter: { name: 'name', value: () => '~list-nas-1%', matches: (item) => text(item['name']).startsWith('list-nas-1') },
    refused: 'created_at',
  },
  {
    name: '/pools',
    path: () => '/pools',
    key: 'pools',
    id: 'id',
    total: perSeries,
    filterable: ['id', 'name', 'type', 'content', 'comment', 'primary_id'],
    sortable: ['id', 'name', 'type', 'content', 'comment', 'primary_id'],
    sort: { attribute: 'type', direction: 'asc' },
    filter: { name: 'content', value: () => '!=tape', matches: (item) => item['content'] !== 'tape' },
    refused: 'nas_share_ids',
  },
  {
    name: '/snmp/traps',
    path: () => '/snmp/traps',
    key: 'traps',
    id: 'snmp_trap_id',
    total: perSeries,
    filterable: ['snmp_trap_id', 'activation', 'version', 'manager', 'severity_low', 'severity_high', 'notify_type', 'security_name'],
    sortable: ['snmp_trap_id', 'activation', 'version', 'manager', 'severity_low', 'severity_high', 'notify_type', 'security_name'],
    sort: { attribute: 'manager', direction: 'desc' },
    filter: { name: 'severity_low', value: () => '>=3', matches: (item) => Number(item['severity_low']) >= 3 },
    refused: 'community',
  },
  {
    name: '/users',
    path: () => '/users',
    key: 'users',
    id: 'id',
    // the test app's admin and 24 more
    total: perSeries,
    filterable: ['id', 'username', 'admin', 'role', 'disabled', 'created_at'],
    sortable: ['id', 'username', 'admin', 'role', 'disabled', 'created_at'],
    sort: { attribute: 'username', direction: 'desc' },
    filter: { name: 'admin', value: () => '!=true', matches: (item) => item['admin'] === false },
    refused: 'password',
  },
  {
    name: '/api_keys',
    path: () => '/api_keys',
    key: 'api_keys',
    id: 'id',
    total: perSeries,
    filterable: ['id', 'name', 'created_at', 'expires_at', 'last_used_at'],
    sortable: ['id', 'name', 'created_at', 'expires_at', 'last_used_at'],
    sort: { attribute: 'expires_at', direction: 'asc' },
    filter: { name: 'expires_at', value: () => '<2031-01-01', matches: (item) => item['expires_at'] !== null && text(item['expires_at']) < '2031-01-01' },
    refused: 'key_hash',
  },
  {
    name: '/cors_rules',
    path: () => '/cors_rules',
    key: 'cors_rules',
    id: 'id',
    total: perSeries,
    filterable: ['id', 'path'],
    sortable: ['id', 'path'],
    sort: { attribute: 'path', direction: 'desc' },
    filter: { name: 'path', value: () => '><*|/api/v2/pools*', matches: (item) => item['path'] === '*' || item['path'] === '/api/v2/pools*' },
    refused: 'origins',
  },
  {
    name: '/schedules',
    path: () => '/schedules',
    key: 'schedules',
    id: 'id',
    total: perSeries,
    filterable: ['id', 'name', 'action', 'enabled', 'pool_id', 'nas_id', 'next', 'last_run_at', 'missed_count', 'skipped_count'],
    sortable: ['id', 'name', 'action', 'enabled', 'pool_id', 'nas_id', 'next', 'last_run_at', 'missed_count', 'skipped_count', 'created_at'],
    sort: { attribute: 'nas_id', direction: 'desc' },
    filter: { name: 'name', value: () => '!~list-schedule-1%', matches: (item) => !text(item['name']).startsWith('list-schedule-1') },
    refused: 'rrule',
  },
  {
    name: '/nas_shares',
    path: () => '/nas_shares',
    key: 'nas_shares',
    id: 'id',
    // 25 shares on one NAS, 3 on another
    total: perSeries + 3,
    filterable: [...shareFilters, 'nas_id', 'pool_id'],
    sortable: shareFields,
    sort: { attribute: 'options', direction: 'asc' },
    filter: { name: 'path', value: () => '!~/vol/1%', matches: (item) => !text(item['path']).startsWith('/vol/1') },
    refused: 'password',
  },
  {
    name: '/nas/{nas_id}/nas_shares',
    path: () => `/nas/${holder.name}/nas_shares`,
    key: 'nas_shares',
    id: 'id',
    total: perSeries,
    filterable: [...shareFilters, 'pool_id'],
    sortable: shareFields,
    sort: { attribute: 'name', direction: 'desc' },
    filter: { name: 'pool_id', value: () => 'null', matches: (item) => item['pool_id'] === null },
    refused: 'nas_id',
  },
  {
    name: '/pools/{pool_id}/nas_shares',
    path: () => `/pools/${members.id}/nas_shares`,
    key: 'nas_shares',
    id: 'id',
    total: perSeries,
    filterable: [...shareFilters, 'nas_id'],
    sortable: shareFields,
    sort: { attribute: 'nas_id', direction: 'desc' },
    filter: { name: 'nas_id', value: () => `!=${holder.id}`, matches: (item) => item['nas_id'] !== holder.id },
    refused: 'pool_id',
  },
];

beforeAll(async () => {
  t = await createTestApp();
  const hosts = ['a.example', 'b.example', 'c.example'];
  const nas: Nas[] = [];
  for (let i = 0; i < perSeries; i += 1) {
    // Not `local`: a local share's path must lie under the test's local roots.
    const type = i % 2 === 0 ? 'nfs_v4' : 'smb_v3';
    nas.push(
      await addNas(t, { name: `list-nas-${String(i).padStart(2, '0')}`, host: hosts[i % 3]!, type, ...(i % 4 === 0 ? {} : { comment: `floor ${i % 3}` }) }),
    );
  }
  holder = nas[0]!;
  const held = [];
  for (let i = 0; i < perSeries; i += 1) {
    held.push(await addShare(t, holder, { name: `share-${i}`, path: `/vol/${i % 3}/s${i}`, ...(i % 4 === 0 ? {} : { options: i % 2 === 0 ? 'rw' : 'ro' }) }));
  }
  const elsewhere = [];
  for (let i = 0; i < 3; i += 1) elsewhere.push(await addShare(t, nas[1]!, { name: `other-${i}`, path: '/other' }));

  const types = ['primary', 'scratch', 'active_archive', 'data_exchange'] as const;
  const contents = ['nas', 'tape', 'cloud'] as const;
  members = await addPool(t, { name: 'list-pool-members', content: 'nas', type: 'primary' });
  for (let i = 1; i < perSeries; i += 1) await addPool(t, { name: `list-pool-${i}`, type: types[i % 4]!, content: contents[i % 3]! });
  // 22 shares of the holder NAS and the 3 of the other one: 25 members from two NAS.
  await joinPool(
    t,
    members,
    [...held.slice(3), ...elsewhere].map((share) => share.id),
  );

  for (let i = 0; i < perSeries; i += 1) {
    await addTrap(t, { manager: `192.0.2.${i % 7}`, version: i % 2 === 0 ? 'v2c' : 'v1', severity_low: (i % 5) + 1, severity_high: 5 });
  }
  for (let i = 0; i < perSeries - 1; i += 1) await addUser(t, { username: `list-user-${i}`, admin: i % 5 === 0 });
  for (let i = 0; i < perSeries; i += 1) {
    const expires_at = i % 3 === 0 ? null : `20${30 + (i % 4)}-01-01T00:00:00.000Z`;
    await t.core.apiKeys.create(systemPrincipal, { name: `list-key-${i}`, api_key_scopes: [{ controller: 'nas', action: 'index' }], expires_at });
  }
  // Each of the three targets a list can tell apart: shares one by one, a pool, a NAS.
  for (let i = 0; i < perSeries; i += 1) {
    const target = i % 3 === 0 ? { nas_share_ids: [held[0]!.id] } : i % 3 === 1 ? { pool_id: members.id } : { nas_id: nas[i % 2]!.id };
    await t.core.schedules.create(systemPrincipal, {
      name: `list-schedule-${String(i).padStart(2, '0')}`,
      action: i % 2 === 0 ? 'test' : 'scan',
      rrule: 'DTSTART:20250101T000000Z\nRRULE:FREQ=DAILY',
      ...target,
    });
  }
  const corsPaths = ['/api/v2/nas*', '/api/v2/pools*', '*'];
  for (let i = 0; i < perSeries; i += 1) await addCorsRule(t, { path: corsPaths[i % 3]! });
});
afterAll(() => t.close());

interface Page {
  count: number;
  items: Item[];
}

async function get(c: ListCase, query: string): Promise<Response> {
  return t.call('GET', `/api/v2${c.path()}${query === '' ? '' : `?${query}`}`, { auth: t.basic });
}

async function list(c: ListCase, query: string): Promise<Page> {
  const res = await get(c, query);
  const body = await res.text();
  expect(res.status, `${c.name}?${query}: ${body}`).toBe(200);
  const parsed = JSON.parse(body) as Record<string, unknown>;
  expect(Object.keys(parsed).sort()).toEqual(['count', c.key].sort());
  return { count: parsed['count'] as number, items: parsed[c.key] as Item[] };
}

const idOf = (c: ListCase, item: Item) => Number(item[c.id]);
const ids = (c: ListCase, page: Page) => page.items.map((item) => idOf(c, item));

/** A refusal: 400 `invalid` on `attribute`, with exactly this message. */
async function expectRefusal(res: Response, attribute: string, message: string | RegExp): Promise<void> {
  const body = await expectModelError(res, 400, attribute, 'invalid');
  expect(body.messages).toHaveLength(1);
  if (typeof message === 'string') expect(body.messages[0]).toBe(message);
  else expect(body.messages[0]).toMatch(message);
}

/** docs/decisions/015-list-order-and-ties.md: nulls lowest, `id` the last tie-breaker in the direction of the sort. */
function sortedLocally(c: ListCase, items: readonly Item[]): Item[] {
  const { attribute, direction } = c.sort;
  const sign = direction === 'asc' ? 1 : -1;
  return [...items].sort((a, b) => {
    const [x, y] = [a[attribute], b[attribute]];
    const order = x === y ? 0 : x === null ? -1 : y === null ? 1 : (x as number | string) < (y as number | string) ? -1 : 1;
    return sign * (order || idOf(c, a) - idOf(c, b));
  });
}

describe.each(cases)('GET $name', (c) => {
  let everything: Page;
  beforeAll(async () => {
    everything = await list(c, 'limit=100');
  });

  it('holds enough rows for several pages; 20 by default, in id order, with count the total', async () => {
    expect(everything.count).toBe(c.total);
    expect(everything.items).toHaveLength(c.total);
    const all = ids(c, everything);
    expect(all).toEqual([...all].sort((a, b) => a - b));
    const first = await list(c, '');
    expect(first.count).toBe(c.total);
    expect(ids(c, first)).toEqual(all.slice(0, 20));
  });

  it('takes limit/offset and page/per_page alike, with count the total before pagination', async () => {
    const all = ids(c, everything);
    const byOffset = await list(c, 'limit=10&offset=10');
    const byPage = await list(c, 'page=2&per_page=10');
    expect(ids(c, byOffset)).toEqual(all.slice(10, 20));
    expect(ids(c, byPage)).toEqual(all.slice(10, 20));
    expect([byOffset.count, byPage.count]).toEqual([c.total, c.total]);
    expect(ids(c, await list(c, 'page=2'))).toEqual(all.slice(20));
    expect(ids(c, await list(c, 'offset=20'))).toEqual(all.slice(20));
    expect(ids(c, await list(c, 'limit=3'))).toEqual(all.slice(0, 3));
    expect(await list(c, 'page=9&per_page=10')).toEqual({ count: c.total, items: [] });
  });

  it('refuses to mix the two schemes', async () => {
    for (const query of ['limit=5&page=2', 'offset=5&per_page=5', 'page=1&offset=0']) {
      await expectRefusal(await get(c, query), 'page', 'use limit/offset or page/per_page, not both');
    }
  });

  it.each([
    ['limit=0', 'limit', 'limit must be between 1 and 100'],
    ['limit=101', 'limit', 'limit must be between 1 and 100'],
    ['limit=2.5', 'limit', 'limit must be an integer between 1 and 100'],
    ['per_page=101', 'per_page', 'per_page must be between 1 and 100'],
    ['per_page=0', 'per_page', 'per_page must be between 1 and 100'],
    ['page=0', 'page', `page must be between 1 and ${maxPage}`],
    ['page=two', 'page', `page must be an integer between 1 and ${maxPage}`],
    ['offset=-1', 'offset', 'offset must be an integer of 0 or more'],
  ])('answers ?%s with 400 and the real bounds', async (query, attribute, message) => {
    await expectRefusal(await get(c, query), attribute, message);
  });

  it('refuses an unknown query parameter, naming every accepted one (and the closest)', async () => {
    const accepted = [...pagination, ...c.filterable].join(', ');
    await expectRefusal(await get(c, 'colour=blue'), 'colour', `unknown query parameter 'colour'; accepted: ${accepted}`);
    await expectRefusal(await get(c, 'limt=5'), 'limt', `unknown query parameter 'limt'; accepted: ${accepted}; did you mean 'limit'?`);
    await expectRefusal(await get(c, 'sortby=id'), 'sortby', /did you mean 'sort_by'\?$/);
  });

  it('refuses a filter the list does not take', async () => {
    const res = await get(c, `${c.refused}=1`);
    const listed = c.sortable.includes(c.refused);
    const secret = ['password', 'community', 'key_hash'].includes(c.refused);
    const message = secret
      ? `cannot filter on '${c.refused}'`
      : listed
        ? `cannot filter on '${c.refused}'; filterable: ${c.filterable.join(', ')}`
        : `unknown query parameter '${c.refused}'; accepted: ${[...pagination, ...c.filterable].join(', ')}`;
    await expectRefusal(res, c.refused, message);
  });

  it('sorts on its attributes, nulls lowest and id last, the same through either scheme', async () => {
    const sortBy = `sort_by=${c.sort.attribute}:${c.sort.direction}`;
    const expected = sortedLocally(c, everything.items).map((item) => idOf(c, item));
    expect(ids(c, await list(c, `${sortBy}&limit=100`))).toEqual(expected);
    expect(ids(c, await list(c, `${sortBy}&page=2&per_page=10`))).toEqual(expected.slice(10, 20));
    expect(ids(c, await list(c, `${sortBy}&limit=10&offset=10`))).toEqual(expected.slice(10, 20));
    await expectRefusal(await get(c, 'sort_by=bogus'), 'sort_by', `cannot sort by 'bogus'; sortable: ${c.sortable.join(', ')}`);
  });

  it('filters with an operator, and counts the matches before pagination', async () => {
    const expected = everything.items.filter((item) => c.filter.matches(item)).map((item) => idOf(c, item));
    expect(expected.length).toBeGreaterThan(1);
    expect(expected.length).toBeLessThan(c.total);
    const filter = `${c.filter.name}=${encodeURIComponent(c.filter.value())}`;
    const all = await list(c, `${filter}&limit=100`);
    expect(ids(c, all)).toEqual(expected);
    expect(all.count).toBe(expected.length);
    const second = await list(c, `${filter}&page=2&per_page=1`);
    expect(second).toEqual({ count: expected.length, items: [all.items[1]] });
  });
});

describe('the API description', () => {
  it.each(cases)('documents the query parameters $name accepts, and only those', async (c) => {
    const res = await t.call('GET', '/api/v2/openapi.json');
    const document = (await res.json()) as { paths: Record<string, { get?: { parameters?: Array<{ name: string; in: string }> } }> };
    const parameters = document.paths[c.name]?.get?.parameters ?? [];
    expect(parameters.filter((p) => p.in === 'query').map((p) => p.name)).toEqual([...pagination, ...c.filterable]);
  });
});
