import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Storage } from '../../ports/storage.js';
import type { RawQuery } from '../../list-query/list-query.js';
import { parseListQuery } from '../../list-query/parse-list-query.js';
import { shareListSpecs } from '../../domain/nas-share.js';
import { nasListSpec } from '../../domain/nas.js';
import { poolListSpec } from '../../domain/pool.js';
import { openSqliteStorage } from '../sqlite/sqlite-storage.js';
import { postgresOrSkip } from '../../testing/postgres-test-database.js';
import { migratedPostgres } from '../../testing/migrated-postgres.js';
import type { Database } from './kysely-schema.js';
import { listRows } from './kysely-list-rows.js';
import type { ListTimeBound } from './list-time-bound.js';

/**
 * Issue 26 item 6 and issue 29 item 7 on both adapters: `~*` / `!~*` and `sort_by=ATTR:ci` give
 * the same rows on SQLite and PostgreSQL (ASCII letters folded, nothing else), page the same
 * whether a page seeks or walks, and a prefix `~*` on a share's name or a `name:ci` order reads
 * the `*_name_ci` index (migration 0012), as each database's own EXPLAIN says.
 */
// Locally a missing server skips with the reason printed; on CI it fails.
const unreachable = await postgresOrSkip('the PostgreSQL half of the case-insensitive list tests');

interface Opened {
  storage: Storage;
  /** A Kysely of its own on the same database, noting every statement it runs. */
  noting: Kysely<Database>;
  noted: CompiledQuery[];
  /** Runs SQL beside the service (seeding, ANALYZE). */
  exec(text: string): Promise<void>;
  /** The plan of a statement, one line per step. */
  explain(query: CompiledQuery): Promise<string[]>;
  close(): Promise<void>;
}

const dir = mkdtempSync(join(tmpdir(), 'dms-ci-list-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function openSqlite(): Promise<Opened> {
  const file = join(dir, 'list.sqlite');
  const storage = openSqliteStorage({ file });
  await storage.migrate();
  const side = new BetterSqlite3(file);
  const noted: CompiledQuery[] = [];
  const noting = new Kysely<Database>({ dialect: new SqliteDialect({ database: new BetterSqlite3(file) }), log: (event) => void noted.push(event.query) });
  return {
    storage,
    noting,
    noted,
    exec: async (text) => void side.exec(text),
    // As SQLite's shell prints it: a step inside a sub-query is indented under it.
    async explain(query) {
      const rows = side.prepare(`explain query plan ${query.sql}`).all(...(query.parameters as unknown[])) as Array<{
        id: number;
        parent: number;
        detail: string;
      }>;
      const depth = new Map([[0, -1]]);
      return rows.map((row) => {
        const level = (depth.get(row.parent) ?? -1) + 1;
        depth.set(row.id, level);
        return `${'  '.repeat(level)}${row.detail}`;
      });
    },
    async close() {
      await noting.destroy();
      side.close();
      await storage.close();
    },
  };
}

async function openPostgres(): Promise<Opened> {
  const { url, storage, close: closeDatabase } = await migratedPostgres();
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const noted: CompiledQuery[] = [];
  const noting = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: (event) => void noted.push(event.query) });
  const run = async <Row extends Record<string, unknown>>(text: string, values: readonly unknown[] = []) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query<Row>(text, [...values])).rows;
    } finally {
      await client.end();
    }
  };
  return {
    storage,
    noting,
    noted,
    exec: async (text) => void (await run(text)),
    explain: async (query) => (await run<{ 'QUERY PLAN': string }>(`explain ${query.sql}`, query.parameters)).map((row) => row['QUERY PLAN']),
    async close() {
      await noting.destroy();
      await closeDatabase();
    },
  };
}

/** Names that differ in case only, names past ASCII, and a tie broken by id. */
const names = ['Proj-000', 'proj-001', 'PROJECTS', 'project', 'prox', 'alpha', 'Beta', 'gamma', 'Delta', 'École', 'école', 'Same', 'same', 'zeta'];
/** Shares that make the tables big enough for a planner to prefer an index it can use. */
const filler = 3000;

const adapters = [
  { name: 'sqlite', open: openSqlite, skip: false },
  { name: 'postgres', open: openPostgres, skip: unreachable !== undefined },
] as const;

for (const adapter of adapters) {
  describe.skipIf(adapter.skip)(`case-insensitive lists (${adapter.name})`, () => {
    let opened: Opened;
    beforeAll(async () => {
      opened = await adapter.open();
      const { storage } = opened;
      const nas = await storage.nas.create({ name: 'filer', host: 'h', type: 'local', comment: null, price: null });
      for (const name of names) {
        await storage.shares.create({ nas_id: nas.id, name, path: `/${name}`, options: null, username: null, password_enc: null });
        await storage.nas.create({ name, host: 'named', type: 'local', comment: null, price: null });
        await storage.pools.create({ name, comment: null, type: 'primary', content: 'nas' });
      }
      // One statement on either dialect: `with recursive` before an insert.
      await opened.exec(
        `with recursive n(i) as (select 1 union all select i + 1 from n where i < ${filler})
         insert into nas_shares (nas_id, name, path, created_at, updated_at)
         select ${nas.id}, 'share-' || i, '/p', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z' from n`,
      );
      await opened.exec('analyze');
    }, 120_000);
    afterAll(async () => {
      await opened?.close();
    });

    const shares = async (raw: RawQuery) => {
      const page = await opened.storage.shares.list(parseListQuery({ name: ['!~share-%'], ...raw }, shareListSpecs.all));
      return page.items.map((item) => item.name);
    };
    const sorted = (list: string[]) => [...list].sort();

    it('~* matches whatever the case of ASCII letters, prefix or not; ~ stays case-sensitive', async () => {
      expect(sorted(await shares({ name: ['~*proj%'] }))).toEqual(sorted(['Proj-000', 'proj-001', 'PROJECTS', 'project']));
      expect(sorted(await shares({ name: ['~*PROJ-%'] }))).toEqual(['Proj-000', 'proj-001']);
      expect(sorted(await shares({ name: ['~*%JEC%'] }))).toEqual(['PROJECTS', 'project']);
      expect(sorted(await shares({ name: ['~*s_me'] }))).toEqual(['Same', 'same']);
      expect(await shares({ name: ['~proj%'] })).toEqual(['proj-001', 'project']);
      // Several terms must all match: the `!~share-%` of every call and this one.
      expect((await opened.storage.shares.list(parseListQuery({ name: ['~*PROJ%', '~*%s'] }, shareListSpecs.all))).items.map((s) => s.name)).toEqual([
        'PROJECTS',
      ]);
    });

    it('!~* keeps what does not match, and a null attribute', async () => {
      const kept = await shares({ name: ['!~*%E%'] });
      expect(sorted(kept)).toEqual(sorted(['alpha', 'gamma', 'Proj-000', 'proj-001', 'prox']));
      // username is null on every share: "does not match" holds for each.
      expect((await shares({ username: ['!~*x%'] })).length).toBe(names.length);
    });

    it('folds ASCII letters only, the same on both adapters: É and é stay apart', async () => {
      expect(await shares({ name: ['~*é%'] })).toEqual(['école']);
      expect(await shares({ name: ['~*%COLE'] })).toEqual(['École', 'école']);
    });

    it('sorts by name:ci as people read it, ties by id, both directions; name alone stays byte-wise', async () => {
      const ci = ['alpha', 'Beta', 'Delta', 'gamma', 'Proj-000', 'proj-001', 'project', 'PROJECTS', 'prox', 'Same', 'same', 'zeta', 'École', 'école'];
      expect(await shares({ sort_by: ['name:ci'], per_page: ['100'] })).toEqual(ci);
      // Descending: ties (Same, same) by id descending too, as the last key's direction.
      expect(await shares({ sort_by: ['name:desc:ci'], per_page: ['100'] })).toEqual([...ci].reverse());
      expect(await shares({ sort_by: ['name'], per_page: ['100'] })).toEqual([...names].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y))));
      const nas = await opened.storage.nas.list(parseListQuery({ host: ['named'], sort_by: ['name:ci'] }, nasListSpec));
      expect(nas.items.map((item) => item.name)).toEqual(ci);
      const pools = await opened.storage.pools.list(parseListQuery({ sort_by: ['name:ci'] }, poolListSpec));
      expect(pools.items.map((item) => item.name)).toEqual(ci);
    });

    it('pages through name:ci in storage the same whether a page seeks from an earlier page’s row or walks', async () => {
      for (const direction of ['asc', 'desc']) {
        const raw = { name: ['~*%r%'], sort_by: [`name:${direction}:ci`] };
        const all = await opened.storage.shares.list(parseListQuery({ ...raw, limit: ['100'] }, shareListSpecs.all));
        // Forward page by page (each seeks from the last one's row), then jumps back and deeper.
        for (const offset of [0, 3, 6, 9, 12, 1, 10, 4]) {
          const page = await opened.storage.shares.list(parseListQuery({ ...raw, limit: ['3'], offset: [String(offset)] }, shareListSpecs.all));
          expect(page.count).toBe(all.count);
          expect(page.items.map((item) => item.id)).toEqual(all.items.slice(offset, offset + 3).map((item) => item.id));
        }
      }
    });

    // No pattern but a prefix: the list time bound is never asked.
    const unbounded: ListTimeBound = { ms: 0, run: (db, work) => work(db, () => undefined), cancelled: () => false };
    /** The statements the list runs for `raw`, each with its plan. */
    const plans = async (raw: RawQuery) => {
      opened.noted.length = 0;
      await listRows(opened.noting, { listTimeBound: unbounded }, 'nas_shares', ['id', 'name'], parseListQuery(raw, shareListSpecs.all));
      expect(opened.noted.length).toBe(2);
      return Promise.all(opened.noted.map(async (query) => ({ sql: query.sql, plan: (await opened.explain(query)).join('\n') })));
    };

    it('walks the name_ci index for a prefix ~* on a share’s name, for the page and the count', async () => {
      for (const { sql, plan } of await plans({ name: ['~*PROJ%'] })) {
        if (adapter.name === 'sqlite') expect(plan, sql).toMatch(/SEARCH nas_shares USING (COVERING )?INDEX nas_shares_name_ci \(<expr>>\? AND <expr><\?\)/);
        else expect(plan, sql).toMatch(/Index (Only )?Scan using nas_shares_name_ci on nas_shares|Bitmap Index Scan on nas_shares_name_ci/);
        expect(plan, sql).not.toMatch(/SCAN nas_shares$|Seq Scan on nas_shares/m);
      }
    });

    it('reads a name:ci page in the index’s order, with no sort of the table', async () => {
      const [page] = await plans({ sort_by: ['name:desc:ci'], limit: ['20'], offset: ['100'] });
      if (adapter.name === 'sqlite') {
        // The sub-query that picks the page walks the index in order; only the page's 20 rows are sorted.
        expect(page!.plan, page!.sql).toMatch(/^ {2}SCAN nas_shares USING COVERING INDEX nas_shares_name_ci$/m);
        expect(page!.plan, page!.sql).not.toMatch(/^ +USE TEMP B-TREE FOR ORDER BY/m);
      } else {
        expect(page!.plan, page!.sql).toMatch(/Index (Only )?Scan Backward using nas_shares_name_ci/);
      }
    });
  });
}
