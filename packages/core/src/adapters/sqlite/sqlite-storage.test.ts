import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runStorageContract } from '../../testing/storage-contract.js';
import { openSqliteStorage } from './sqlite-storage.js';

const dir = mkdtempSync(join(tmpdir(), 'dms-sqlite-'));
let n = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

runStorageContract('sqlite file', async () => openSqliteStorage({ file: join(dir, `contract-${n++}.sqlite`) }));

describe('sqlite adapter', () => {
  it('never serves a stale list count: writes here and commits by another connection refresh it', async () => {
    const file = join(dir, 'counts.sqlite');
    const here = openSqliteStorage({ file });
    await here.migrate();
    const other = openSqliteStorage({ file });
    const nas = await here.nas.create({ name: 'n', host: 'h', type: 'local', comment: null, price: null });
    const query = { limit: 1, offset: 0, sort: [], filters: [{ field: 'name', op: 'like' as const, values: ['s%'] }] };
    const add = (storage: typeof here, name: string) =>
      storage.shares.create({ nas_id: nas.id, name, path: '/p', options: null, username: null, password_enc: null });
    await add(here, 's1');
    expect((await here.shares.list(query)).count).toBe(1);
    await add(here, 's2');
    expect((await here.shares.list(query)).count).toBe(2);
    await add(other, 's3');
    expect((await here.shares.list(query)).count).toBe(3);
    const [first] = (await here.shares.list(query)).items;
    await here.shares.update(first!.id, { name: 'renamed' });
    expect((await here.shares.list(query)).count).toBe(2);
    await other.close();
    await here.close();
  });

  it('runs in WAL mode with the migration recorded, and survives a reopen', async () => {
    const file = join(dir, 'reopen.sqlite');
    const first = openSqliteStorage({ file });
    await first.migrate();
    await first.nas.create({ name: 'kept', host: 'h', type: 'local', comment: null, price: null });
    await first.close();
    const second = openSqliteStorage({ file });
    await second.migrate();
    expect((await second.nas.findByName('kept'))?.host).toBe('h');
    await second.close();
    expect(readFileSync(file).subarray(18, 20)).toEqual(Buffer.from([2, 2]));
  });
});
