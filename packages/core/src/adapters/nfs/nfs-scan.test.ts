import { chmodSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NasType } from '../../domain/common.js';
import { isJobFinished } from '../../domain/job.js';
import { ganeshaCheck, exportTree, startGaneshaServer, type GaneshaServer } from '../../testing/ganesha-server.js';
import { recordingRun, shareLocation } from '../../testing/recording-run.js';
import { adminWithEngine, openTestDms } from '../../testing/test-dms.js';
import { createNfsDriver } from './nfs-driver.js';

/** Files in the wide directory: more than one READDIR(PLUS) page holds at the default page size. */
const wide = 3000;

/**
 * A nested tree (4 levels), a directory wide enough for several pages, unicode names, a hard
 * link (a second name of a file, counted once), symbolic links to a
 * file, to a directory and to '..' (none followed), sizes from 0 to a few KiB.
 */
function makeTree(): string {
  const tree = mkdtempSync(join(tmpdir(), 'dms-nfs-scan-'));
  chmodSync(tree, 0o755);
  let dir = tree;
  for (const level of ['a', 'b', 'c', 'd']) {
    dir = join(dir, level);
    mkdirSync(dir);
    for (let i = 0; i < 3; i += 1) writeFileSync(join(dir, `f${i}.txt`), Buffer.alloc(level.charCodeAt(0) * (i + 1), 0x61));
  }
  mkdirSync(join(tree, 'wide'));
  for (let i = 0; i < wide; i += 1) writeFileSync(join(tree, 'wide', `file-with-a-longish-name-${i}.dat`), Buffer.alloc(i % 97, 0x62));
  mkdirSync(join(tree, 'ünïcödé-日本語'));
  writeFileSync(join(tree, 'ünïcödé-日本語', 'café-☕.txt'), 'unicode');
  writeFileSync(join(tree, 'ünïcödé-日本語', '🙂'), Buffer.alloc(4096));
  linkSync(join(tree, 'a', 'f0.txt'), join(tree, 'hard-link'));
  symlinkSync(join(tree, 'a', 'f1.txt'), join(tree, 'link-to-file'));
  symlinkSync(join(tree, 'wide'), join(tree, 'link-to-dir'));
  symlinkSync('..', join(tree, 'a', 'link-up'));
  writeFileSync(join(tree, 'empty'), '');
  return tree;
}

/** Regular files under `dir` as the test counts them: a file with several names once (by inode), symbolic links not followed. */
function countTree(dir: string, seen = new Set<number>()): { file_count: number; file_size_sum: number } {
  const totals = { file_count: 0, file_size_sum: 0 };
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      const below = countTree(path, seen);
      totals.file_count += below.file_count;
      totals.file_size_sum += below.file_size_sum;
    } else if (entry.isFile()) {
      const stat = lstatSync(path);
      if (seen.has(stat.ino)) continue;
      seen.add(stat.ino);
      totals.file_count += 1;
      totals.file_size_sum += stat.size;
    }
  }
  return totals;
}
const localScan = (tree: string) => countTree(tree);

const check = ganeshaCheck({ v3: true });

// Without the real peer this prints why it skips; with CI=true requireTools fails instead.
describe.skipIf(!check.ok)('NFS scans against NFS-Ganesha (v3 and v4)', () => {
  let tree: string;
  let ganesha: GaneshaServer;
  const at = (type: NasType, path: string) =>
    shareLocation(type, { host: ganesha.host, path, options: { port: String(ganesha.port), mountport: String(ganesha.mountPort) } });
  const pathOf = (type: NasType, sub = '') => (type === 'nfs_v3' ? tree : '/export') + sub;

  beforeAll(async () => {
    tree = makeTree();
    ganesha = await exportTree(tree, [3, 4]);
  });
  afterAll(() => ganesha?.stop());

  for (const type of ['nfs_v3', 'nfs_v4'] as const) {
    it(`issue 42: a ${type} scan counts what the exported directory holds (a hard-linked file once), over several pages`, async () => {
      const local = localScan(tree);
      expect(local.file_count).toBe(wide + 4 * 3 + 2 + 1);
      const run = recordingRun();
      const driver = createNfsDriver({ progressIntervalMs: 0 });
      const result = await driver.scan(at(type, pathOf(type)), run);
      expect(result).toMatchObject({ file_count: local.file_count, file_size_sum: local.file_size_sum, skipped: { count: 0 } });
      // The file system's size is read after the walk, as a test reads it.
      expect(result.capacity?.capacity_bytes).toBeGreaterThan(0);
      // One report per page listed: more pages than directories, so the wide one took several.
      const directories = 4 + 2 + 1;
      expect(run.progress.length).toBeGreaterThan(directories);
      expect(run.progress.at(-1)).toMatchObject({ directories });
      expect(run.progress.map((p) => p.file_count)).toEqual([...run.progress.map((p) => p.file_count)].sort((x, y) => x - y));
    });

    it(`issue 42: a ${type} scan of a directory inside the export counts that directory only`, async () => {
      const local = localScan(join(tree, 'a'));
      const result = await createNfsDriver().scan(at(type, pathOf(type, '/a')), recordingRun());
      expect(result).toMatchObject({ file_count: local.file_count, file_size_sum: local.file_size_sum });
    });
  }

  it('issue 42: one call in flight at a time counts the same', async () => {
    const result = await createNfsDriver({ concurrency: 1 }).scan(at('nfs_v4', '/export'), recordingRun());
    const local = localScan(tree);
    expect(result).toMatchObject({ file_count: local.file_count, file_size_sum: local.file_size_sum });
  });

  it('issue 42: a path that is a file or missing fails in the words of the test', async () => {
    const driver = createNfsDriver();
    await expect(driver.scan(at('nfs_v4', '/export/empty'), recordingRun())).rejects.toThrow("path '/export/empty' is not a directory");
    await expect(driver.scan(at('nfs_v4', '/export/nope'), recordingRun())).rejects.toThrow("path '/export/nope' not found on host '127.0.0.1'");
    await expect(driver.scan(at('nfs_v3', `${tree}/nope`), recordingRun())).rejects.toThrow(`path '${tree}/nope' not found on host '127.0.0.1'`);
  });

  it('issue 42: a scan aborted through its signal stops with the signal reason', async () => {
    const run = recordingRun({ onProgress: () => run.controller.abort(new Error('cancelled by the test')) });
    await expect(createNfsDriver({ progressIntervalMs: 0 }).scan(at('nfs_v3', tree), run)).rejects.toThrow('cancelled by the test');
  });
});

// Without the real peer this prints why it skips; with CI=true requireTools fails instead.
describe.skipIf(!check.ok)('NFS scans of a directory the AUTH_SYS user cannot read', () => {
  let tree: string;
  let ganesha: GaneshaServer;

  beforeAll(async () => {
    tree = makeTree();
    mkdirSync(join(tree, 'a', 'locked'));
    writeFileSync(join(tree, 'a', 'locked', 'secret'), 'not counted');
    chmodSync(join(tree, 'a', 'locked'), 0o000);
    // dms presents root; squashed to nobody, the server's permission checks apply to it.
    ganesha = await startGaneshaServer({ exportPath: tree, versions: [3, 4], squashRoot: true });
  });
  afterAll(async () => {
    await ganesha?.stop();
    rmSync(tree, { recursive: true, force: true });
  });

  for (const type of ['nfs_v3', 'nfs_v4'] as const) {
    it(`issue 42: a ${type} scan counts the rest and names the unreadable directory as skipped`, async () => {
      const location = shareLocation(type, {
        host: ganesha.host,
        path: type === 'nfs_v3' ? tree : '/export',
        options: { port: String(ganesha.port), mountport: String(ganesha.mountPort) },
      });
      const result = await createNfsDriver().scan(location, recordingRun());
      expect(result).toMatchObject({
        file_count: wide + 4 * 3 + 2 + 1,
        file_size_sum: expect.any(Number),
        skipped: { count: 1, shown: ["'a/locked' (permission denied)"] },
      });
    });
  }

  it('issue 42: the scan job completes and its message names the skipped directory', async () => {
    const t = await openTestDms({ adapter: 'sqlite' });
    try {
      const { core } = t.dms;
      const principal = await adminWithEngine(t);
      const nas = await core.nas.create(principal, { name: 'ganesha', type: 'nfs_v4', host: ganesha.host });
      const share = await core.shares.create(principal, String(nas.id), { name: 'export', path: '/export', options: `port=${ganesha.port}` });
      const started = await core.jobs.scan(principal, { kind: 'all' }, String(share.id));
      let job = await core.jobs.show(principal, started.job_id);
      while (!isJobFinished(job)) job = await core.jobs.show(principal, started.job_id, '30');
      expect(job).toMatchObject({ status: 'completed', file_count: wide + 4 * 3 + 2 + 1 });
      expect(job.message).toMatch(/^counted 3,015 files, .*; skipped 1 directory: 'a\/locked' \(permission denied\)$/);
    } finally {
      await t.dms.engine.stop();
      await t.close();
    }
  });
});

// Without the real peer this prints why it skips; with CI=true requireTools fails instead.
describe.skipIf(!check.ok)('NFS scans of an export removed mid-scan', () => {
  for (const type of ['nfs_v3', 'nfs_v4'] as const) {
    it(`issue 42: a ${type} scan fails in plain words when the exported directory is removed after the first page`, async () => {
      const tree = makeTree();
      const ganesha = await startGaneshaServer({ exportPath: tree, versions: [3, 4] });
      try {
        const location = shareLocation(type, {
          host: ganesha.host,
          path: type === 'nfs_v3' ? tree : '/export',
          options: { port: String(ganesha.port), mountport: String(ganesha.mountPort) },
        });
        let removed = false;
        // Reported after the first page, before the directories it listed are handed out.
        const run = recordingRun({
          onProgress: () => {
            if (removed) return;
            removed = true;
            rmSync(tree, { recursive: true, force: true });
          },
        });
        await expect(createNfsDriver({ progressIntervalMs: 0 }).scan(location, run)).rejects.toThrow(
          "the share's directory went away during the scan (stale file handle)",
        );
        expect(removed).toBe(true);
      } finally {
        await ganesha.stop();
        rmSync(tree, { recursive: true, force: true });
      }
    });
  }
});
