import { execFileSync } from 'node:child_process';
import { statfsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShareCapacity, TestResult } from '../../ports/share-driver.js';
import { recordingRun, shareLocation } from '../../testing/recording-run.js';
import { mountSmallDisk, type SmallDisk } from '../../testing/small-disk.js';
import { sambaCheck, startSambaServer, type SambaServer } from '../../testing/samba-server.js';
import { ganeshaCheck, startGaneshaServer, type GaneshaServer } from '../../testing/ganesha-server.js';
import { createLocalDriver } from '../local/local-driver.js';
import { createSmbDriver } from '../smb/smb-driver.js';
import { parseSmbBlocksLine } from '../smb/smb-capacity.js';
import { createNfsDriver } from '../nfs/nfs-driver.js';

/**
 * Issue 42 item 6: each protocol's reading of a share's size and free space against what the
 * system's own tools say of the same place, within one block. The share lives on a small tmpfs
 * of the test's own, part used, so nothing else writes there between the two readings.
 */

function capacityOf(result: TestResult): ShareCapacity {
  expect(result).toMatchObject({ ok: true });
  if (!result.ok || result.capacity === undefined) throw new Error(`no capacity in ${JSON.stringify(result)}`);
  return result.capacity;
}

function statfsOf(dir: string): { capacity: ShareCapacity; block: number } {
  const stats = statfsSync(dir);
  return { capacity: { capacity_bytes: stats.bsize * stats.blocks, free_bytes: stats.bsize * stats.bavail }, block: stats.bsize };
}

function expectWithinOneBlock(read: ShareCapacity, reference: ShareCapacity, block: number): void {
  expect(Math.abs(read.capacity_bytes - reference.capacity_bytes)).toBeLessThanOrEqual(block);
  expect(Math.abs(read.free_bytes - reference.free_bytes)).toBeLessThanOrEqual(block);
  expect(read.free_bytes).toBeLessThan(read.capacity_bytes);
}

let disk: SmallDisk | string;
beforeAll(() => {
  disk = mountSmallDisk('8m');
  if (typeof disk !== 'string') writeFileSync(join(disk.dir, 'some-data'), Buffer.alloc(3 * 1024 * 1024, 7));
});
afterAll(() => {
  if (typeof disk !== 'string') disk.remove();
});
const onDisk = () => {
  if (typeof disk === 'string') throw new Error(disk);
  return disk.dir;
};

describe('issue 42 item 6: a local share', () => {
  it('issue 42 item 6: a local share reads the size and free space df -B1 reports for its directory', async (context) => {
    if (typeof disk === 'string') return context.skip();
    const dir = onDisk();
    const read = capacityOf(await createLocalDriver({ roots: [dir] }).test(shareLocation('local', { path: dir }), recordingRun()));
    const [size, avail] = execFileSync('df', ['-B1', '--output=size,avail', dir], { encoding: 'utf8' }).trim().split('\n')[1]!.trim().split(/\s+/).map(Number);
    const { capacity, block } = statfsOf(dir);
    expectWithinOneBlock(read, { capacity_bytes: size!, free_bytes: avail! }, block);
    expectWithinOneBlock(read, capacity, block);
    // A scan reads it too, at its end.
    const scanned = await createLocalDriver({ roots: [dir] }).scan(shareLocation('local', { path: dir }), recordingRun());
    expectWithinOneBlock(scanned.capacity!, capacity, block);
  });
});

const samba = sambaCheck();
const user = { name: 'dmstest', password: 'S3cret pass!' };

describe.skipIf(!samba.ok)('issue 42 item 6: a Samba share', () => {
  let server: SambaServer;
  beforeAll(async () => {
    if (typeof disk !== 'string') server = await startSambaServer({ shares: { data: disk.dir }, users: [user] });
  });
  afterAll(async () => server?.stop());

  it("issue 42 item 6: an SMB share reads what smbclient's du prints for the same share", async (context) => {
    if (typeof disk === 'string') return context.skip();
    const location = shareLocation('smb_v3', {
      host: server.host,
      path: 'data',
      username: user.name,
      password: user.password,
      options: { port: String(server.port) },
    });
    const driver = createSmbDriver();
    const read = capacityOf(await driver.test(location, recordingRun()));
    const du = execFileSync('smbclient', [`//${server.host}/data`, '-p', String(server.port), '-U', `${user.name}%${user.password}`, '-c', 'du'], {
      encoding: 'utf8',
    });
    const line = du.split('\n').find((text) => parseSmbBlocksLine(text) !== undefined);
    const reference = parseSmbBlocksLine(line ?? '');
    if (reference === undefined) throw new Error(`no blocks line in smbclient's du: ${du}`);
    const unit = Number(/blocks of size (\d+)/.exec(line!)![1]);
    expectWithinOneBlock(read, reference, unit);
    // And both are the file system's own size, as statfs says (Samba rounds to its unit).
    expectWithinOneBlock(read, statfsOf(onDisk()).capacity, unit);
    const scanned = await driver.scan(location, recordingRun());
    expectWithinOneBlock(scanned.capacity!, reference, unit);
  });
});

const ganesha = ganeshaCheck({ v3: true });

describe.skipIf(!ganesha.ok)('issue 42 item 6: an NFS export (NFS-Ganesha, v3 and v4)', () => {
  let server: GaneshaServer;
  beforeAll(async () => {
    if (typeof disk !== 'string') server = await startGaneshaServer({ exportPath: disk.dir, versions: [3, 4] });
  });
  afterAll(async () => server?.stop());

  for (const [type, path] of [
    ['nfs_v3', () => onDisk()],
    ['nfs_v4', () => server.pseudo],
  ] as const) {
    it(`issue 42 item 6: an ${type} share reads the exported directory’s statfs (FSSTAT / GETATTR space)`, async (context) => {
      if (typeof disk === 'string') return context.skip();
      const location = shareLocation(type, { host: server.host, path: path(), options: { port: String(server.port) } });
      const read = capacityOf(await createNfsDriver().test(location, recordingRun()));
      const { capacity, block } = statfsOf(onDisk());
      expectWithinOneBlock(read, capacity, block);
    });
  }
});
