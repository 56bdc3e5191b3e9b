import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListQuery, RawQuery } from '../../list-query/list-query.js';
import { parseListQuery } from '../../list-query/parse-list-query.js';
import { nasListSpec } from '../../domain/nas.js';
import type { ListTimeBound } from './list-time-bound.js';
import { postgresOrSkip } from '../../testing/postgres-test-database.js';
import { migratedPostgresKysely, migratedSqliteKysely, type MigratedKysely } from '../../testing/migrated-kysely.js';
import { listRows } from './kysely-list-rows.js';
import { createListCache } from './kysely-list-cache.js';

/**
 * Issue 26 item 4 on both adapters: a NAS's price, decimal text, filters and sorts as a number
 * (`price=>100` does not match `9.00`; 9.00 before 100.50), nulls lowest as every nullable
 * attribute, ties by id, and pages the same whether a page seeks from an earlier page's row or walks.
 */
// Locally a missing server skips with the reason printed; on CI it fails.
const unreachable = await postgresOrSkip('the PostgreSQL half of the decimal list tests');

const dir = mkdtempSync(join(tmpdir(), 'dms-decimal-list-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** In id order: text order and number order differ (`9.00` > `100.50` as text), equal numbers written apart, nulls. */
const prices = [null, '9.00', '100.50', '250', '12.5', null, '9', '1000.0001', '12.50', '99.9999', '100', '0', '999999999999999.9999'];

const adapters = [
  { name: 'sqlite', open: () => migratedSqliteKysely(join(dir, 'list.sqlite')), skip: false },
  { name: 'postgres', open: migratedPostgresKysely, skip: unreachable !== undefined },
] as const;

for (const adapter of adapters) {
  describe.skipIf(adapter.skip)(`decimal lists (${adapter.name})`, () => {
    let opened: MigratedKysely;
    /** Each NAS's id, in the order of `prices`. */
    const ids: number[] = [];
    beforeAll(async () => {
      opened = await adapter.open();
      for (const [i, price] of prices.entries()) {
        ids.push((await opened.storage.nas.create({ name: `filer-${i}`, host: 'h', type: 'local', comment: null, price })).id);
      }
    }, 120_000);
    afterAll(async () => {
      await opened?.close();
    });

    const priced = async (raw: RawQuery) => {
      const page = await opened.storage.nas.list(parseListQuery({ limit: ['100'], ...raw }, nasListSpec));
      expect(page.count).toBe(page.items.length);
      return page.items.map((item) => item.price);
    };

    it('compares with >, >=, <, <= as numbers, never matching null', async () => {
      expect(await priced({ price: ['>100'] })).toEqual(['100.50', '250', '1000.0001', '999999999999999.9999']);
      expect(await priced({ price: ['>=100'] })).toEqual(['100.50', '250', '1000.0001', '100', '999999999999999.9999']);
      expect(await priced({ price: ['<=9'] })).toEqual(['9.00', '9', '0']);
      expect(await priced({ price: ['<12.5'] })).toEqual(['9.00', '9', '0']);
      expect(await priced({ price: ['>9', '<100.5'] })).toEqual(['12.5', '12.50', '99.9999', '100']);
    });

    it('takes = and != (an equal number however written), >< and !><, and null', async () => {
      expect(await priced({ price: ['12.5000'] })).toEqual(['12.5', '12.50']);
      expect(await priced({ price: ['><9|250.0'] })).toEqual(['9.00', '250', '9']);
      expect(await priced({ price: ['null'] })).toEqual([null, null]);
      expect(await priced({ price: ['!=null'] })).toHaveLength(prices.length - 2);
      // "Not equal" and "not in" keep a NAS without a price, as for every nullable attribute.
      expect(await priced({ price: ['!=9'] })).toEqual(prices.filter((price) => price !== '9' && price !== '9.00'));
      expect(await priced({ price: ['!><9|12.5|0'] })).toEqual([null, '100.50', '250', null, '1000.0001', '99.9999', '100', '999999999999999.9999']);
    });

    /** Ids in number order, nulls lowest, ties by id in the direction of the sort. */
    const expectedOrder = (direction: 'asc' | 'desc') => {
      const sign = direction === 'asc' ? 1 : -1;
      const value = (price: string | null) => (price === null ? -Infinity : Number(price));
      return prices
        .map((price, i) => ({ price, id: ids[i]! }))
        .sort((a, b) => sign * (value(a.price) - value(b.price) || a.id - b.id))
        .map((row) => row.id);
    };

    it('sorts by price as a number, nulls lowest (first ascending, last descending), ties by id', async () => {
      for (const direction of ['asc', 'desc'] as const) {
        const page = await opened.storage.nas.list(parseListQuery({ sort_by: [`price:${direction}`], limit: ['100'] }, nasListSpec));
        expect(page.items.map((item) => item.id)).toEqual(expectedOrder(direction));
      }
      const ascending = await priced({ sort_by: ['price'] });
      expect(ascending.slice(0, 6)).toEqual([null, null, '0', '9.00', '9', '12.5']);
      expect(ascending.at(-1)).toBe('999999999999999.9999');
    });

    it('pages through the price order: every page as the whole order has it', async () => {
      for (const direction of ['asc', 'desc'] as const) {
        const all = expectedOrder(direction);
        for (const offset of [0, 3, 6, 9, 12, 1, 10]) {
          const page = await opened.storage.nas.list(parseListQuery({ sort_by: [`price:${direction}`], limit: ['3'], offset: [String(offset)] }, nasListSpec));
          expect(page.count).toBe(prices.length);
          expect(page.items.map((item) => item.id)).toEqual(all.slice(offset, offset + 3));
        }
      }
    });

    it('seeks from a cached page’s row by the number, as it walks (a decimal key that holds no null)', async () => {
      // No list sorts on a NOT NULL decimal yet: the price order without its nulls, marked NOT NULL, takes the seek path.
      const cache = createListCache(() => 'unchanged');
      // No pattern filter: the list time bound is never asked.
      const unbounded: ListTimeBound = { ms: 0, run: (db, work) => work(db, () => undefined), cancelled: () => false };
      const columns = ['id', 'price'];
      for (const direction of ['asc', 'desc'] as const) {
        const parsed = parseListQuery({ price: ['!=null'], sort_by: [`price:${direction}`] }, nasListSpec);
        const query = (offset: number): ListQuery => ({ ...parsed, limit: 3, offset, sort: parsed.sort.map((key) => ({ ...key, nullable: false })) });
        const all = expectedOrder(direction).filter((id) => prices[ids.indexOf(id)] !== null);
        for (const offset of [0, 3, 6, 9, 1, 4, 7, 10]) {
          const page = await listRows<{ id: number }>(opened.db, { listTimeBound: unbounded }, 'nas', columns, query(offset), { cache });
          expect(page.count).toBe(all.length);
          expect(
            page.items.map((item) => item.id),
            `${direction} from ${offset}`,
          ).toEqual(all.slice(offset, offset + 3));
        }
      }
    });
  });
}
