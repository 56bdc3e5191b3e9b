import { closeSync, existsSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../src/commands.js';

/** Issue 21 (faults): `dms check` and `dms migrate --init`. */
describe('dms check and dms migrate --init', () => {
  const saved = { ...process.env };
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dms-cli-faults-'));
    process.env['DMS_DATA_DIR'] = dir;
    delete process.env['DMS_DATABASE_URL'];
  });
  afterEach(() => {
    process.env = { ...saved };
    rmSync(dir, { recursive: true, force: true });
  });

  async function cli(...argv: string[]): Promise<{ code: number; lines: string[] }> {
    const lines: string[] = [];
    const code = await runCli(argv, (line) => lines.push(line));
    return { code, lines };
  }

  it('item 21.11: dms check answers ok for a sound database, and exit 1 with the problems and how to restore for a damaged one', async () => {
    expect((await cli('migrate')).code).toBe(0);
    const file = join(dir, 'dms.sqlite');
    const raw = new BetterSqlite3(file);
    raw.exec(
      "insert into nas (name, host, type, created_at, updated_at) with recursive n(value) as (select 1 union all select value + 1 from n where value < 2000) select 'nas-' || value, 'h', 'local', 'now', 'now' from n",
    );
    raw.pragma('wal_checkpoint(TRUNCATE)');
    const pageSize = raw.pragma('page_size', { simple: true }) as number;
    const pages = (raw.prepare("select pageno from dbstat where name = 'nas' and pagetype = 'leaf' order by pageno").all() as Array<{ pageno: number }>).map(
      (row) => row.pageno,
    );
    raw.close();
    expect(await cli('check')).toEqual({ code: 0, lines: [`${file}: ok`] });

    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(64, 0xff), 0, 64, (pages[Math.floor(pages.length / 2)]! - 1) * pageSize + 8);
    closeSync(fd);
    const damaged = await cli('check');
    expect(damaged.code).toBe(1);
    expect(damaged.lines[0]).toBe(`${file}: damaged`);
    expect(damaged.lines.length).toBeGreaterThan(2);
    expect(damaged.lines.at(-1)).toMatch(/restore .*dms\.sqlite from your last backup/);
    // serve and the other commands refuse it too, saying the same.
    expect((await cli('user', 'list')).code).toBe(1);
  });

  it('item 21.2: dms migrate refuses to start over where a database was, dms migrate --init does it', async () => {
    expect((await cli('migrate')).code).toBe(0);
    for (const name of ['dms.sqlite', 'dms.sqlite-wal', 'dms.sqlite-shm']) rmSync(join(dir, name), { force: true });
    expect((await cli('migrate')).code).toBe(1);
    expect(existsSync(join(dir, 'dms.sqlite'))).toBe(false);
    expect(await cli('migrate', '--init')).toEqual({ code: 0, lines: ['migrations applied'] });
    expect(existsSync(join(dir, 'dms.sqlite'))).toBe(true);
  });
});
