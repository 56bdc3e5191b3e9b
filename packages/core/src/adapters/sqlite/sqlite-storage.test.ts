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
