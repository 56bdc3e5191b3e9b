import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListQuery, RawQuery } from '../../list-query/list-query.js';
import { parseListQuery } from '../../list-query/parse-list-query.js';
import { auditEventListSpec } from '../../domain/audit-event.js';
import { lowerAscii } from '../../list-query/ascii-case.js';
import type { ListTimeBound } from './list-time-bound.js';
import { postgresOrSkip } from '../../testing/postgres-test-database.js';
import { migratedPostgresKysely, migratedSqliteKysely, type MigratedKysely } from '../../testing/migrated-kysely.js';
import { deepOffset, listRows, type ListRowsOptions } from './kysely-list-rows.js';

/**
 * Issue 48 on both adapters, over more rows than the deep offset: a page past it walks from the
 * nearer end of the list and answers what a walk from the start would (nulls, case-insensitive
 * keys, filters, a short last page, past the end); a count window (docs/decisions/186-history-list-counts.md)
 * counts exactly up to the page's end plus the window and says when its count is a lower bound,
 * and a client paging on while `offset < count` still reads every row once.
 */
// Locally a missing server skips with the reason printed; on CI it fails.
const unreachable = await postgresOrSkip('the PostgreSQL half of the deep page tests');

const dir = mkdtempSync(join(tmpdir(), 'dms-deep-pages-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const adapters = [
  { name: 'sqlite', open: () => migratedSqliteKysely(join(dir, 'deep.sqlite')), skip: false },
  { name: 'postgres', open: migratedPostgresKysely, skip: unreachable !== undefined },
] as const;

/** Past the deep offset by 300 rows: pages there may walk from the end. */
const total = deepOffset + 300;
const names = ['admin', 'Alice', 'bob', 'alice', 'Bob'];
const types = ['nas', 'pools', 'nas_shares'];

interface Row {
  id: number;
  at: string;
  actor_name: string;
  resource_type: string | null;
  outcome: string;
}
const columns = ['id', 'at', 'actor_name', 'resource_type', 'outcome'];

/** The i-th event: times tied in threes, names that differ only in case, a null type in four. */
function event(i: number) {
  return {
    at: new Date(Date.UTC(2026, 0, 1) + Math.floor(i / 3) * 1000).toISOString(),
    actor_kind: 'user' as const,
    actor_name: names[i % names.length]!,
    via: 'rest' as const,
    action: 'update' as const,
    resource_type: i % 4 === 0 ? null : types[i % 3]!,
    outcome: i % 50 === 7 ? ('failure' as const) : ('success' as const),
  };
}

// No pattern filter: the list time bound is never asked.
const unbounded: ListTimeBound = { ms: 0, run: (db, work) => work(db, () => undefined), cancelled: () => false };

/** The rows in a query's order as the contract defines it: nulls lowest, `:ci` folded, ties by id in the last key's direction. */
function ordered(rows: readonly Row[], query: ListQuery): Row[] {
  const keys = query.sort.some((key) => key.field === 'id') ? query.sort : [...query.sort, { field: 'id', direction: query.sort.at(-1)?.direction ?? 'asc' }];
  const value = (row: Row, key: (typeof keys)[number]) => {
    const raw = row[key.field as keyof Row];
    return 'caseInsensitive' in key && key.caseInsensitive && typeof raw === 'string' ? lowerAscii(raw) : raw;
  };
  const compare = (a: unknown, b: unknown) => (a === b ? 0 : a === null ? -1 : b === null ? 1 : (a as string | number) < (b as string | number) ? -1 : 1);
  return [...rows].sort((a, b) => {
    for (const key of keys) {
      const order = compare(value(a, key), value(b, key)) * (key.direction === 'asc' ? 1 : -1);
      if (order !== 0) return order;
    }
    return 0;
  });
}

for (const adapter of adapters) {
  describe.skipIf(adapter.skip)(`deep pages and count windows (${adapter.name})`, () => {
    let opened: MigratedKysely;
    let rows: Row[];
    beforeAll(async () => {
      opened = await adapter.open();
      for (let from = 0; from < total; from += 500) {
        const batch = Array.from({ length: Math.min(500, total - from) }, (_, i) => event(from + i));
        await opened.db.insertInto('audit_events').values(batch).execute();
      }
      rows = (await opened.db.selectFrom('audit_events').select(['id', 'at', 'actor_name', 'resource_type', 'outcome']).orderBy('id').execute()) as Row[];
    }, 120_000);
    afterAll(async () => {
      await opened?.close();
    });

    const query = (raw: RawQuery, offset: number, limit = 20): ListQuery => {
      const parsed = parseListQuery(raw, auditEventListSpec);
      // The audit list's default: newest first.
      return { ...parsed, offset, limit, sort: parsed.sort.length > 0 ? parsed.sort : [{ field: 'at', direction: 'desc', nullable: false }] };
    };
    const list = (q: ListQuery, options?: ListRowsOptions) => listRows<Row>(opened.db, { listTimeBound: unbounded }, 'audit_events', columns, q, options);
    const matching = (raw: RawQuery) => rows.filter((row) => raw['outcome'] === undefined || row.outcome === raw['outcome'][0]);

    it('pages past the deep offset answer what the whole order holds there, walked from whichever end is nearer', async () => {
      const orders: RawQuery[] = [
        {},
        { sort_by: ['resource_type'] },
        { sort_by: ['resource_type:desc'] },
        { sort_by: ['actor:ci|at:desc'] },
        { sort_by: ['id'] },
      ];
      for (const raw of orders) {
        const all = ordered(rows, query(raw, 0));
        for (const offset of [deepOffset - 1, deepOffset, deepOffset + 137, total - 20, total - 5, total, total + 100]) {
          const page = await list(query(raw, offset));
          expect(page.count).toBe(total);
          expect(page.countIsLowerBound).toBeUndefined();
          expect(
            page.items.map((item) => item.id),
            `${JSON.stringify(raw)} from ${offset}`,
          ).toEqual(all.slice(offset, offset + 20).map((row) => row.id));
        }
      }
      // With a filter: its own count decides which end is nearer.
      const successes = { outcome: ['success'] };
      const all = ordered(matching(successes), query(successes, 0));
      for (const offset of [deepOffset, all.length - 3]) {
        const page = await list(query(successes, offset));
        expect(page.count).toBe(all.length);
        expect(page.items.map((item) => item.id)).toEqual(all.slice(offset, offset + 20).map((row) => row.id));
      }
    });

    it('a count window counts exactly to the page’s end plus the window, then says its count is a lower bound', async () => {
      const window = { countWindow: 100 };
      expect(await list(query({}, 0), window)).toMatchObject({ count: 120, countIsLowerBound: true });
      // The last window that misses one row, and the first that holds every row.
      expect(await list(query({}, total - 121), window)).toMatchObject({ count: total - 1, countIsLowerBound: true });
      const exact = await list(query({}, total - 120), window);
      expect(exact.count).toBe(total);
      expect(exact.countIsLowerBound).toBeUndefined();
      // Those deep pages count from their first row on; an order with nulls (no seek) from the start; past the end, exactly.
      for (const raw of [{}, { sort_by: ['resource_type:desc'] }]) {
        const all = ordered(rows, query(raw, 0));
        const [short, full] = [await list(query(raw, total - 121), window), await list(query(raw, total - 120), window)];
        expect([short.count, short.countIsLowerBound, full.count, full.countIsLowerBound]).toEqual([total - 1, true, total, undefined]);
        expect(short.items.map((item) => item.id)).toEqual(all.slice(total - 121, total - 101).map((row) => row.id));
        expect(full.items.map((item) => item.id)).toEqual(all.slice(total - 120, total - 100).map((row) => row.id));
        expect(await list(query(raw, total + 100), window)).toEqual({ count: total, items: [] });
      }
      // A filter's matches the same way; a page of them and its count agree with the whole order.
      const failures = { outcome: ['failure'] };
      const all = ordered(matching(failures), query(failures, 0));
      expect(all.length).toBeGreaterThan(120);
      const first = await list(query(failures, 0), window);
      expect(first).toMatchObject({ count: 120, countIsLowerBound: true });
      expect(first.items.map((item) => item.id)).toEqual(all.slice(0, 20).map((row) => row.id));
      const last = await list(query(failures, all.length - 20), window);
      expect(last.count).toBe(all.length);
      expect(last.countIsLowerBound).toBeUndefined();
      expect(last.items.map((item) => item.id)).toEqual(all.slice(-20).map((row) => row.id));
    });

    it('a client paging on while offset < count reads every row once, its count a lower bound until the end is in sight', async () => {
      const seen: number[] = [];
      let offset = 0;
      for (;;) {
        const page = await list(query({ sort_by: ['id'] }, offset, 100), { countWindow: 50 });
        seen.push(...page.items.map((item) => item.id));
        offset += page.items.length;
        expect(page.countIsLowerBound === true).toBe(page.count < total);
        if (page.items.length === 0 || offset >= page.count) break;
      }
      expect(seen).toEqual(rows.map((row) => row.id));
    });
  });
}
