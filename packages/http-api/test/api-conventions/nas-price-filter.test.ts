import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../src/testing/test-app.js';
import { addNas, expectModelError, type Nas } from '../../src/testing/fixtures.js';
import { openApiDocument } from '../../src/contracts/openapi-document.js';

/**
 * Issue 26 item 4: `price` is a filter on /nas, compared as a number (`price=>100` does not match
 * `9.00`, which it would as text), sorted as one with nulls lowest as every nullable attribute,
 * and documented as a decimal. Runs on both adapters (the route suites' projects).
 */
let t: TestApp;
/** By price as created; `none` has no price. */
const nas: Record<string, Nas> = {};
const prices = { nine: '9.00', hundredAndHalf: '100.50', twoFifty: '250', none: null, nineAgain: '9', hundred: '100' } as const;

beforeAll(async () => {
  t = await createTestApp();
  for (const [name, price] of Object.entries(prices)) nas[name] = await addNas(t, { name: `price-${name}`, price });
});
afterAll(() => t.close());

async function list(query: string): Promise<Nas[]> {
  const res = await t.call('GET', `/api/v2/nas?${query}`, { auth: t.basic });
  const text = await res.text();
  expect(res.status, `?${query}: ${text}`).toBe(200);
  const body = JSON.parse(text) as { count: number; nas: Nas[] };
  // The count is of every match: all six NAS where a page of the order is asked.
  expect(body.count).toBe(/(page|offset)=/.test(query) ? Object.keys(prices).length : body.nas.length);
  return body.nas;
}
const names = (items: Nas[]) => items.map((item) => item.name.replace('price-', ''));

describe('GET /api/v2/nas?price=…', () => {
  it('compares as numbers: >100 is 100.50 and 250, not 9.00 nor a NAS without a price', async () => {
    expect(names(await list(`price=${encodeURIComponent('>100')}`))).toEqual(['hundredAndHalf', 'twoFifty']);
    expect(names(await list(`price=${encodeURIComponent('<=9')}`))).toEqual(['nine', 'nineAgain']);
    expect(names(await list(`price=${encodeURIComponent('>=100')}&price=${encodeURIComponent('<250')}`))).toEqual(['hundredAndHalf', 'hundred']);
    expect(names(await list('price=9.0'))).toEqual(['nine', 'nineAgain']);
    expect(names(await list(`price=${encodeURIComponent('><250|100.5')}`))).toEqual(['hundredAndHalf', 'twoFifty']);
    expect(names(await list('price=null'))).toEqual(['none']);
    expect(names(await list(`price=${encodeURIComponent('!=9')}`))).toEqual(['hundredAndHalf', 'twoFifty', 'none', 'hundred']);
  });

  it('sorts as numbers, nulls lowest (first ascending, last descending), ties by id, in pages', async () => {
    expect(names(await list('sort_by=price'))).toEqual(['none', 'nine', 'nineAgain', 'hundred', 'hundredAndHalf', 'twoFifty']);
    expect(names(await list(`sort_by=${encodeURIComponent('price:desc')}`))).toEqual(['twoFifty', 'hundredAndHalf', 'hundred', 'nineAgain', 'nine', 'none']);
    expect(names(await list('sort_by=price&page=2&per_page=2'))).toEqual(['nineAgain', 'hundred']);
    expect(names(await list('sort_by=price&limit=2&offset=4'))).toEqual(['hundredAndHalf', 'twoFifty']);
  });

  it('refuses a pattern operator, naming the operators a decimal takes', async () => {
    for (const operator of ['~', '!~', '~*', '!~*']) {
      const res = await t.call('GET', `/api/v2/nas?price=${encodeURIComponent(`${operator}1%`)}`, { auth: t.basic });
      const body = await expectModelError(res, 400, 'price', 'invalid');
      expect(body.messages).toEqual(['price is numeric: ~ !~ ~* !~* apply to text attributes; price takes = != > >= < <= >< !><']);
    }
  });

  it('refuses a value that is not a decimal, saying that a decimal such as 12.50 is expected', async () => {
    for (const value of ['abc', '-1', '1e3', '12.']) {
      const res = await t.call('GET', `/api/v2/nas?price=${encodeURIComponent(`>${value}`)}`, { auth: t.basic });
      const body = await expectModelError(res, 400, 'price', 'invalid');
      expect(body.messages).toEqual([`price filter value '${value}' must be a decimal such as 12.50 (up to 15 digits, optionally a point and up to 4 more)`]);
    }
    await expectModelError(await t.call('GET', '/api/v2/nas?sort_by=price:ci', { auth: t.basic }), 400, 'sort_by', 'invalid');
  });

  it('is documented as a decimal filter, and sorts with no :ci term', () => {
    const document = openApiDocument() as unknown as {
      paths: Record<string, { get: { parameters: Array<{ name: string; description?: string; schema: { items?: { enum?: string[] } } }> } }>;
    };
    const parameters = document.paths['/nas']!.get.parameters;
    expect(parameters.find((p) => p.name === 'price')?.description).toMatch(/; the value is a decimal such as 12\.50, compared as a number/);
    const terms = parameters.find((p) => p.name === 'sort_by')?.schema.items?.enum ?? [];
    expect(terms.filter((term) => term.startsWith('price'))).toEqual(['price', 'price:asc', 'price:desc']);
  });
});
