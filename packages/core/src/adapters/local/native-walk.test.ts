import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DriverError } from '../../ports/share-driver.js';
import type { ScanProgress } from '../../ports/share-driver.js';
import { ScanAnalyticsBuilder } from '../../scans/scan-analytics-builder.js';
import { loadNativeWalker, nativeWalkTree } from './native-walk.js';
import { walkTree } from './walk-tree.js';

/**
 * The C walker (@dms/native-walk) against the worker-thread walker on trees this file builds:
 * the same totals and, through the same analytics builder, the same analytics. On CI the C
 * walker must have been built: its absence fails here instead of skipping.
 */

const loaded = await loadNativeWalker();
const walker = loaded.walker;
if (walker === undefined) {
  if (process.env['CI'] === 'true') throw new Error(`CI builds the native walker: ${loaded.reason}`);
  console.log(`[skip] native walker: ${loaded.reason}`);
}

const DAY = 86_400;
const base = 1_700_000_000;
const now = base * 1000;
let root: string;
let outside: string;
let made = 0;

function file(path: string, bytes: number): void {
  const full = join(root, path);
  mkdirSync(join(full, '..'), { recursive: true });
  writeFileSync(full, Buffer.alloc(bytes, 0x61));
  made += 1;
  // Ages in 7-day and 5-day steps, so the histograms spread over every bucket.
  utimesSync(full, base - made * 5 * DAY, base - made * 7 * DAY);
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'dms-native-walk-'));
  outside = mkdtempSync(join(tmpdir(), 'dms-native-outside-'));
  writeFileSync(join(outside, 'secret'), Buffer.alloc(9999));
  file('top.TXT', 3);
  const deep = Array.from({ length: 60 }, (_, i) => `d${i}`).join('/');
  file(`deep/${deep}/leaf.bin`, 4000);
  for (let i = 0; i < 300; i += 1) file(`wide/sub${i % 30}/f${i}.${['log', 'Dat', 'x', ''][i % 4]}`, i * 37);
  for (let i = 0; i < 40; i += 1) file(`big/b${i}`, 5000 + (i % 7) * 1000);
  file('ünïcödé/日本語 ファイル.txt', 300);
  file('emoji 🎉/.hidden', 12);
  file('spaces and\ttab/new\nline.tar.gz', 2_000_000);
  file('links/a.dat', 100_000);
  linkSync(join(root, 'links/a.dat'), join(root, 'links/b.dat'));
  mkdirSync(join(root, 'other'));
  linkSync(join(root, 'links/a.dat'), join(root, 'other/c.dat'));
  mkdirSync(join(root, 'empty'));
  symlinkSync(outside, join(root, 'to-outside'));
  symlinkSync(join(outside, 'secret'), join(root, 'links', 'secret-link'));
  symlinkSync('nowhere', join(root, 'dangling'));
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const quiet = { signal: new AbortController().signal, onProgress: () => {} };
const openDescriptors = () => readdirSync('/proc/self/fd').length;

// Skipped only where the walker was not built, with the reason printed above (CI fails instead).
describe.skipIf(walker === undefined)('native walker', () => {
  const native = walker!;

  it.each([1, 2, 4])('counts what the worker threads count, linked inodes once, symlinks never followed (%i threads)', async (threads) => {
    const expected = await walkTree(root, { ...quiet, workers: 2 });
    expect(expected.file_count).toBe(made); // a.dat once, under whichever of its three names
    expect(await nativeWalkTree(root, native, { ...quiet, threads })).toEqual(expected);
  });

  it.each([1, 2, 4])('gives the analytics builder what the worker threads give it (%i threads)', async (threads) => {
    const byWorkers = new ScanAnalyticsBuilder(now);
    const byNative = new ScanAnalyticsBuilder(now);
    const workersResult = await walkTree(root, { ...quiet, workers: 2, analytics: byWorkers });
    const nativeResult = await nativeWalkTree(root, native, { ...quiet, threads, analytics: byNative });
    expect(nativeResult).toEqual(workersResult);
    const fromNative = byNative.result();
    const fromWorkers = byWorkers.result();
    // A linked inode counts under whichever name a walk met first: its largest-file row may differ in path only.
    const unlinked = (rows: { path: string }[]) => rows.map((row) => ({ ...row, path: /^\/(links|other)\//.test(row.path) ? 'linked' : row.path }));
    expect(unlinked(fromNative.largest_files)).toEqual(unlinked(fromWorkers.largest_files));
    const topOf = (analytics: typeof fromNative) =>
      analytics.top_directories.filter((row) => row.path !== '/links' && row.path !== '/other').sort((a, b) => (a.path < b.path ? -1 : 1));
    expect(topOf(fromNative)).toEqual(topOf(fromWorkers));
    expect({ ...fromNative, largest_files: [], top_directories: [] }).toEqual({ ...fromWorkers, largest_files: [], top_directories: [] });
    expect(fromNative.extensions.length).toBeGreaterThan(3);
    expect(byNative.directoriesInFlight).toBe(0);
  });

  it('walks past the descriptors it keeps (256 parents), opening the rest from the root one component at a time', async () => {
    const tree = mkdtempSync(join(tmpdir(), 'dms-native-deep-'));
    try {
      // 600 levels, each with a side directory: one thread goes down first wherever the listing
      // puts the next level before the side directory (about half the levels in hash order,
      // all in newest-first order), each such parent still waiting for its side directory:
      // more than 256 at once (a second thread would take the side directories meanwhile).
      let directory = tree;
      for (let depth = 0; depth < 600; depth += 1) {
        mkdirSync(join(directory, 's'));
        directory = join(directory, `n${depth}`);
        mkdirSync(directory);
        if (depth % 100 === 99) {
          writeFileSync(join(directory, 'f'), Buffer.alloc(depth));
          symlinkSync(tree, join(directory, 'up'));
        }
      }
      const before = openDescriptors();
      const builder = new ScanAnalyticsBuilder(now);
      const result = await nativeWalkTree(tree, native, { ...quiet, threads: 1, analytics: builder });
      expect(result).toEqual(await walkTree(tree, quiet));
      expect(result.file_count).toBe(6);
      expect(builder.result().largest_files[0]?.bytes).toBe(599);
      expect(openDescriptors()).toBe(before);
    } finally {
      rmSync(tree, { recursive: true, force: true });
    }
  });

  it('lets a worker thread be terminated mid-walk: its threads are stopped before the addon can be unloaded', () => {
    const tree = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'dms-native-terminate-'));
    try {
      for (let d = 0; d < 20; d += 1) {
        mkdirSync(join(tree, `d${d}`));
        for (let f = 0; f < 500; f += 1) writeFileSync(join(tree, `d${d}`, `f${f}`), '');
      }
      // In a process of its own: a thread left running in unloaded code would crash it.
      const walking = `
        const { loadNativeWalker } = await import('@dms/native-walk');
        const { openSync } = await import('node:fs');
        const { workerData, parentPort } = await import('node:worker_threads');
        const plan = { now: 0, ageBounds: [1], sizeBounds: [1], largestFiles: 5 };
        loadNativeWalker().walker.start(openSync(workerData, 'r'), 4, plan, (batch) => {
          if (batch === null) return;
          const until = Date.now() + 2;
          while (Date.now() < until);
          parentPort.postMessage('batch');
        });`;
      const parent = `
        import { Worker } from 'node:worker_threads';
        for (let i = 0; i < 10; i += 1) {
          const worker = new Worker(${JSON.stringify(walking)}, { eval: true, type: 'module', workerData: ${JSON.stringify(tree)} });
          await new Promise((resolve) => worker.once('message', resolve));
          await worker.terminate();
        }
        console.log('terminated 10 walks');`;
      const child = spawnSync(process.execPath, ['--input-type=module', '-e', parent], { cwd: process.cwd(), encoding: 'utf8' });
      expect({ status: child.status, signal: child.signal, stdout: child.stdout.trim() }).toEqual({ status: 0, signal: null, stdout: 'terminated 10 walks' });
    } finally {
      rmSync(tree, { recursive: true, force: true });
    }
  });

  it('counts a name that is not UTF-8, reporting it with U+FFFD as Node decodes it', async () => {
    const tree = mkdtempSync(join(tmpdir(), 'dms-native-bytes-'));
    try {
      mkdirSync(join(tree, 'd'));
      writeFileSync(Buffer.concat([Buffer.from(join(tree, 'd') + '/bad-'), Buffer.from([0xff, 0xfe]), Buffer.from('.BIN')]), Buffer.alloc(2_000_000));
      const builder = new ScanAnalyticsBuilder(now);
      expect(await nativeWalkTree(tree, native, { ...quiet, analytics: builder })).toEqual({ file_count: 1, file_size_sum: 2_000_000 });
      const analytics = builder.result();
      expect(analytics.largest_files.map((row) => row.path)).toEqual(['/d/bad-\ufffd\ufffd.BIN']);
      expect(analytics.extensions.map((row) => row.extension)).toEqual(['bin']);
    } finally {
      rmSync(tree, { recursive: true, force: true });
    }
  });

  it('fails on a root that is not there, and says so with no host path', async () => {
    const error = await nativeWalkTree(join(root, 'missing'), native, quiet).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DriverError);
    expect((error as Error).message).toBe("path '.' not found on share");
  });

  it('stops when aborted mid-walk and closes every descriptor it opened', async () => {
    // More files than one batch holds (4,096), made on tmpfs where there is one: fast to make.
    const tree = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'dms-native-abort-'));
    try {
      for (let d = 0; d < 40; d += 1) {
        mkdirSync(join(tree, `d${d}`, 'inner'), { recursive: true });
        for (let f = 0; f < 150; f += 1) writeFileSync(join(tree, `d${d}`, f % 2 === 0 ? 'inner' : '', `f${f}`), '');
      }
      const before = openDescriptors();
      const controller = new AbortController();
      const progress: ScanProgress[] = [];
      const walk = nativeWalkTree(tree, native, {
        signal: controller.signal,
        threads: 2,
        progressIntervalMs: 0,
        onProgress: (seen) => {
          progress.push(seen);
          controller.abort(new Error('stopped'));
        },
      });
      await expect(walk).rejects.toThrow('stopped');
      expect(progress.length).toBeGreaterThan(0);
      expect(openDescriptors()).toBe(before);
      // And a whole walk leaves none open either.
      expect(await nativeWalkTree(tree, native, quiet)).toEqual({ file_count: 6_000, file_size_sum: 0 });
      expect(openDescriptors()).toBe(before);
    } finally {
      rmSync(tree, { recursive: true, force: true });
    }
  });
});

// Root reads a mode-000 directory, so this walk runs in a child process as nobody (65534).
const canSwitchUser = process.getuid?.() === 0;
if (!canSwitchUser && walker !== undefined) {
  if (process.env['CI'] === 'true') throw new Error('CI runs as root, to walk an unreadable directory as another user');
  console.log('[skip] native walker and an unreadable directory: not root, cannot run the walk as another user');
}

// Also needs root to walk as another user; the reason is printed above (CI runs as root).
describe.skipIf(walker === undefined || !canSwitchUser)('native walker meeting an unreadable directory', () => {
  it('fails the scan on it with the message and path the worker walk gives', () => {
    const tree = mkdtempSync(join(tmpdir(), 'dms-native-locked-'));
    try {
      chmodSync(tree, 0o755);
      writeFileSync(join(tree, 'open.txt'), 'abc');
      mkdirSync(join(tree, 'a', 'locked', 'inner'), { recursive: true });
      writeFileSync(join(tree, 'a', 'locked', 'secret'), 'not counted');
      chmodSync(join(tree, 'a', 'locked'), 0o000);
      const script = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'testing', 'native-walk-as-user.ts');
      const child = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', script, tree], { uid: 65534, gid: 65534, encoding: 'utf8' });
      expect(child.stderr).toBe('');
      const outcome = JSON.parse(child.stdout) as { native: { error?: string }; workers: { error?: string } };
      expect(outcome.native).toEqual({ error: "permission denied on path 'a/locked'" });
      expect(outcome.native).toEqual(outcome.workers);
    } finally {
      chmodSync(join(tree, 'a', 'locked'), 0o755);
      rmSync(tree, { recursive: true, force: true });
    }
  });
});
