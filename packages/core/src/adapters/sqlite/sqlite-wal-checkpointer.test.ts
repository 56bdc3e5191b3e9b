import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteStorage, walCheckpointerOf } from './sqlite-storage.js';

const dir = mkdtempSync(join(tmpdir(), 'dms-wal-checkpointer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const pageBytes = 4096;
/** About 3,000 pages of -wal: 300 NAS with a 40 KB comment each, one commit each. */
async function writeThreeThousandPages(storage: ReturnType<typeof openSqliteStorage>): Promise<void> {
  for (let i = 0; i < 300; i++) await storage.nas.create({ name: `n${i}`, host: 'h', type: 'local', comment: 'x'.repeat(40_000), price: null });
}
const walBytes = (file: string) => statSync(`${file}-wal`).size;

describe('the -wal checkpointed off the event loop (decision 187)', () => {
  it('commits no checkpoint on the loop: the -wal keeps every frame until the worker checkpoints them all', async () => {
    const file = join(dir, 'off-loop.sqlite');
    // No timer round during the test: only the checkpoint asked for.
    const storage = openSqliteStorage({ file, checkpointOffLoop: { everyMs: 3_600_000 } });
    await storage.migrate();
    const checkpointer = await walCheckpointerOf(storage);
    expect(checkpointer).toBeDefined();
    await writeThreeThousandPages(storage);
    // SQLite's own checkpoint (at 1,000 pages) would have restarted the -wal at about 1,000 pages.
    expect(walBytes(file)).toBeGreaterThan(2000 * pageBytes);
    const done = await checkpointer!.now();
    expect(done.busy).toBe(0);
    expect(done.log).toBeGreaterThan(2000);
    expect(done.checkpointed).toBe(done.log);
    await storage.close();
  });

  it('leaves the checkpoints to SQLite when not asked (the CLI, tests): the -wal stays near 1,000 pages', async () => {
    const file = join(dir, 'on-loop.sqlite');
    const storage = openSqliteStorage({ file });
    await storage.migrate();
    expect(await walCheckpointerOf(storage)).toBeUndefined();
    await writeThreeThousandPages(storage);
    expect(walBytes(file)).toBeLessThan(2000 * pageBytes);
    await storage.close();
  });

  it('closes its worker with the storage, and the file reopens with every write', async () => {
    const file = join(dir, 'close.sqlite');
    const storage = openSqliteStorage({ file, checkpointOffLoop: true });
    await storage.migrate();
    await walCheckpointerOf(storage);
    await storage.nas.create({ name: 'kept', host: 'h', type: 'local', comment: null, price: null });
    await storage.close();
    const again = openSqliteStorage({ file });
    expect((await again.nas.list({ limit: 10, offset: 0, sort: [], filters: [] })).items.map((nas) => nas.name)).toEqual(['kept']);
    await again.close();
  });
});
