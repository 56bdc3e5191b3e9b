import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Storage } from '../../ports/storage.js';
import type { RawQuery } from '../../list-query/list-query.js';
import { parseListQuery } from '../../list-query/parse-list-query.js';
import { nasListSpec } from '../../domain/nas.js';
import { isDomainError } from '../../errors/domain-error.js';
import { openSqliteStorage } from '../sqlite/sqlite-storage.js';
import { sqliteListTimeBoundMs } from '../sqlite/sqlite-list-time-bound.js';
import { openPostgresStorage } from '../postgres/postgres-storage.js';
import { postgresOrSkip } from '../../testing/postgres-test-database.js';
import { migratedPostgres } from '../../testing/migrated-postgres.js';

/**
 * Issue 40 items 1 and 8 on both adapters: a pattern means the same on SQLite and PostgreSQL
 * (the backslash escapes, the prefix range included), and a list whose pattern scans is
 * cancelled past its time bound with a 400 naming it, after which the storage serves on.
 */
// Locally a missing server skips with the reason printed; on CI it fails.
const unreachable = await postgresOrSkip('the PostgreSQL half of the list filter bound tests');

interface Opened {
  storage: Storage;
  /** The same database under a list time bound every scanning list outlasts. */
  bounded: Storage;
  /** The bound `bounded` names. */
  boundMs: number;
  close(): Promise<void>;
}

const dir = mkdtempSync(join(tmpdir(), 'dms-list-bounds-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function openSqlite(): Promise<Opened> {
  const file = join(dir, 'list.sqlite');
  const storage = openSqliteStorage({ file });
  await storage.migrate();
  // A clock that moves a second each time a row is checked: the second row is past the bound.
  let now = 0;
  const bounded = openSqliteStorage({ file, listTimeBound: { clock: () => (now += 1000) } });
  return {
    storage,
    bounded,
    boundMs: sqliteListTimeBoundMs,
    async close() {
      await bounded.close();
      await storage.close();
    },
  };
}

async function openPostgres(): Promise<Opened> {
  const { url, storage, close: closeDatabase } = await migratedPostgres();
  // 1 ms: the server cancels a list that scans the long comments below.
  const bounded = openPostgresStorage({ url, poolMax: 1, listStatementTimeoutMs: 1 });
  return {
    storage,
    bounded,
    boundMs: 1,
    async close() {
      await bounded.close();
      await closeDatabase();
    },
  };
}

const adapters = [
  { name: 'sqlite', open: openSqlite, skip: false },
  { name: 'postgres', open: openPostgres, skip: unreachable !== undefined },
] as const;

/** Names with the characters LIKE treats apart: `%`, `_`, the backslash. */
const names = ['a\\', 'a\\b', 'a%b', 'a_b', 'axb', 'ab', 'A_B', 'back\\slash'];

for (const adapter of adapters) {
  describe.skipIf(adapter.skip)(`list filter bounds (${adapter.name})`, () => {
    let opened: Opened;
    beforeAll(async () => {
      opened = await adapter.open();
      for (const name of names) await opened.storage.nas.create({ name, host: 'h', type: 'local', comment: null, price: null });
      // Long comments a `%` pattern tests at every position.
      for (let i = 0; i < 40; i += 1) {
        await opened.storage.nas.create({ name: `long-${i}`, host: 'h', type: 'local', comment: 'a'.repeat(4096), price: null });
      }
    }, 120_000);
    afterAll(async () => {
      await opened?.close();
    });

    const named = async (storage: Storage, raw: RawQuery) => {
      const page = await storage.nas.list(parseListQuery({ limit: ['100'], sort_by: ['id'], ...raw }, nasListSpec));
      return page.items.map((item) => item.name).filter((name) => !name.startsWith('long-'));
    };

    it('issue 40 item 8: a backslash escapes the character after it, on both adapters and in the prefix range', async () => {
      const cases: Array<[string, string[]]> = [
        // A trailing escaped backslash: the names that end in one (PostgreSQL answered 500 for `a\`).
        ['~%\\\\', ['a\\']],
        ['~a\\\\%', ['a\\', 'a\\b']],
        ['~a\\\\', ['a\\']],
        // An escaped wildcard is the character itself, in a LIKE and in a prefix range.
        ['~a\\%b', ['a%b']],
        ['~a\\_b', ['a_b']],
        ['~a\\_%', ['a_b']],
        ['~a_b', ['a\\b', 'a%b', 'a_b', 'axb']],
        ['!~%\\_%', ['a\\', 'a\\b', 'a%b', 'axb', 'ab', 'back\\slash']],
        ['~*a\\_%', ['a_b', 'A_B']],
        ['!~*a\\_b', ['a\\', 'a\\b', 'a%b', 'axb', 'ab', 'back\\slash']],
        // A backslash before another character makes it literal too.
        ['~back\\slash', []],
        ['~back\\\\slash', ['back\\slash']],
        ['~%\\s%', ['back\\slash']],
      ];
      for (const [filter, expected] of cases) expect(await named(opened.storage, { name: [filter] }), filter).toEqual(expected);
    });

    it('issue 40 item 1: a list whose pattern scans past its time bound is cancelled with a 400 naming the bound, and the next list is served', async () => {
      const query = parseListQuery({ comment: Array.from({ length: 4 }, () => `!~%${'a'.repeat(62)}b`) }, nasListSpec);
      const refusal = await opened.bounded.nas.list(query).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(isDomainError(refusal) && refusal.code, String(refusal)).toBe('bad_request');
      expect((refusal as Error).message).toBe(
        `the list's filters ran past ${opened.boundMs} ms, the bound of a list with a pattern other than a prefix (~ !~ ~* !~*): narrow them (a plain prefix abc%, a longer literal, or another filter)`,
      );
      // The same storage answers a list that does not scan, and a prefix (a range: no bound).
      expect(await named(opened.bounded, { name: ['~a\\_%'] })).toEqual(['a_b']);
      expect(await named(opened.bounded, { name: ['=ab'] })).toEqual(['ab']);
      // Under the adapter's own bound a cheaper scan of the same rows answers.
      expect((await opened.storage.nas.list(parseListQuery({ comment: ['!~%ab'] }, nasListSpec))).count).toBe(names.length + 40);
    });
  });
}
