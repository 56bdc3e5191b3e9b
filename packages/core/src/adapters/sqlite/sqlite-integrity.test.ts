import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { integrityProblems } from './sqlite-integrity.js';

describe('integrityProblems: the page cache it reads through (decision 188)', () => {
  let root: string | undefined;
  afterEach(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  const database = () => {
    root = mkdtempSync(join(tmpdir(), 'dms-integrity-'));
    const opened = new BetterSqlite3(join(root, 'dms.sqlite'));
    opened.exec('create table rows (id integer primary key, text text not null)');
    const insert = opened.prepare('insert into rows (text) values (?)');
    opened.transaction(() => {
      for (let i = 0; i < 2000; i++) insert.run(`row ${i} ${'x'.repeat(200)}`);
    })();
    return opened;
  };

  it.each(['quick', 'full'] as const)('runs the %s check with a small cache and gives the connection its own back', (mode) => {
    const opened = database();
    opened.pragma('cache_size = -3000');
    const cacheDuringCheck: unknown[] = [];
    const watched = {
      pragma: (source: string, options?: { simple: true }) => {
        if (/^(quick|integrity)_check/.test(source)) cacheDuringCheck.push(opened.pragma('cache_size', { simple: true }));
        return options ? opened.pragma(source, options) : opened.pragma(source);
      },
    };
    expect(integrityProblems(watched, mode)).toEqual([]);
    expect(cacheDuringCheck).toEqual([-512]);
    expect(opened.pragma('cache_size', { simple: true })).toBe(-3000);
    opened.close();
  });

  it('gives the connection its cache back when the check fails', () => {
    const opened = database();
    const failing = {
      pragma: (source: string, options?: { simple: true }) => {
        if (source.startsWith('quick_check')) throw Object.assign(new Error('file is not a database'), { code: 'SQLITE_NOTADB' });
        return options ? opened.pragma(source, options) : opened.pragma(source);
      },
    };
    const before = opened.pragma('cache_size', { simple: true });
    expect(integrityProblems(failing, 'quick')).toEqual(['SQLITE_NOTADB: file is not a database']);
    expect(opened.pragma('cache_size', { simple: true })).toBe(before);
    opened.close();
  });
});
