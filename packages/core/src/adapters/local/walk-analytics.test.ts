import { spawnSync } from 'node:child_process';
import { chmodSync, linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FoldingScanAnalyticsSink } from '../../ports/share-driver.js';
import { ScanAnalyticsBuilder } from '../../scans/scan-analytics-builder.js';
import { recordingAnalyticsSink } from '../../testing/recording-analytics-sink.js';
import type { RecordedDirectory, RecordedFile, RecordingAnalyticsSink } from '../../testing/recording-analytics-sink.js';
import { findWalk } from './find-walk.js';
import { walkTree } from './walk-tree.js';

/**
 * The local walk feeding a scan's analytics sink, on a tree this file builds: deep, wide,
 * unicode names, hard links (one inode counted once, whichever of its names the walk meets
 * first), symlinks (neither followed nor counted), an empty directory. Every file gets times
 * of its own, so what the sink is told is compared with what was made, fact by fact.
 */

const DAY = 86_400;
const base = 1_700_000_000;

interface MadeFile extends RecordedFile {
  /** Other share-relative names of the same inode. */
  links: string[];
}

let root: string;
const made: MadeFile[] = [];
const madeDirectories = new Map<string, number>(); // share path → subdirectories

function addDirectory(path: string): void {
  if (madeDirectories.has(path)) return;
  madeDirectories.set(path, 0);
  if (path === '/') return;
  const parent = path.slice(0, path.lastIndexOf('/')) || '/';
  addDirectory(parent);
  madeDirectories.set(parent, (madeDirectories.get(parent) ?? 0) + 1);
  mkdirSync(join(root, path), { recursive: true });
}

function addFile(path: string, bytes: number, links: string[] = []): void {
  const index = made.length;
  // Ages of 11-day steps and 3-day steps never fall on a bucket's bound (30, 90, 365, 1095 days).
  const modified = base - index * 11 * DAY;
  const accessed = base - index * 3 * DAY;
  for (const name of [path, ...links]) addDirectory(name.slice(0, name.lastIndexOf('/')) || '/');
  writeFileSync(join(root, path), Buffer.alloc(bytes, 0x62));
  for (const link of links) linkSync(join(root, path), join(root, link));
  utimesSync(join(root, path), accessed, modified);
  made.push({ path, bytes, modifiedMs: modified * 1000, accessedMs: accessed * 1000, links });
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'dms-walk-analytics-'));
  addDirectory('/');
  addFile('/top.txt', 1);
  const deep = Array.from({ length: 40 }, (_, i) => `l${i}`).join('/');
  addFile(`/deep/${deep}/leaf.bin`, 4000);
  addFile('/deep/l0/l1/mid', 12);
  for (let i = 0; i < 700; i += 1) addFile(`/wide/f${String(i).padStart(3, '0')}`, i);
  for (let i = 0; i < 60; i += 1) addFile(`/wide/sub${i}/only`, 10 + i);
  addFile('/ünïcödé/日本語 ファイル.txt', 300);
  addFile('/emoji 🎉/nai\u0308ve.tar.gz', 2_000_000);
  addFile('/emoji 🎉/naïve.tar.gz', 5);
  addFile('/spaces and\ttab/new\nline', 7);
  addFile('/links/a.dat', 100_000, ['/links/b.dat', '/other/c.dat']);
  addFile('/links/pair-1', 64, ['/links/pair-2']);
  addDirectory('/empty');
  symlinkSync('top.txt', join(root, 'link-to-top'));
  symlinkSync('deep', join(root, 'link-to-deep'));
  symlinkSync(join(root, 'wide'), join(root, 'links', 'absolute-link'));
  symlinkSync('nowhere', join(root, 'dangling'));
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

const single = () => made.filter((file) => file.links.length === 0);
const expectedTotals = () => ({ file_count: made.length, file_size_sum: made.reduce((sum, file) => sum + file.bytes, 0) });
const byPath = <T extends { path: string }>(rows: T[]): T[] => [...rows].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
const fact = ({ path, bytes, modifiedMs, accessedMs }: RecordedFile): RecordedFile => ({ path, bytes, modifiedMs, accessedMs });

function expectFactsOfTree(sink: RecordingAnalyticsSink): void {
  const linked = made.filter((file) => file.links.length > 0);
  const linkNames = new Set(linked.flatMap((file) => [file.path, ...file.links]));
  // Files with one link: exactly those made, with their sizes and times.
  expect(byPath(sink.files.filter((file) => !linkNames.has(file.path)).map(fact))).toEqual(byPath(single().map(fact)));
  // Each linked inode: once, under one of its names, with its size and times.
  for (const file of linked) {
    const names = [file.path, ...file.links];
    const seen = sink.files.filter((recorded) => names.includes(recorded.path));
    expect(seen).toHaveLength(1);
    expect({ ...fact(seen[0] as RecordedFile), path: file.path }).toEqual(fact(file));
  }
  // Every directory once, with the subdirectories it holds (symlinks to directories are not).
  const directories: RecordedDirectory[] = sink.directories.map(({ path, subdirectories }) => ({ path, subdirectories }));
  expect(byPath(directories)).toEqual(byPath([...madeDirectories].map(([path, subdirectories]) => ({ path, subdirectories }))));
  // A directory's files come before the directory.
  const directoryOrder = new Map(sink.directories.map((directory) => [directory.path, directory.order]));
  for (const file of sink.files) {
    const directory = file.path.slice(0, file.path.lastIndexOf('/')) || '/';
    expect(file.order).toBeLessThan(directoryOrder.get(directory) ?? -1);
  }
}

describe('local walk feeding scan analytics', () => {
  it.each([
    ['one worker, one directory a batch', { workers: 1, batchMs: 0 }],
    ['three workers, one directory a batch', { workers: 3, batchMs: 0 }],
    ['the default pool and batches', {}],
  ])('tells the sink every file and directory of the tree (%s)', async (_how, pool) => {
    const sink = recordingAnalyticsSink();
    const result = await walkTree(root, { signal: new AbortController().signal, onProgress: () => {}, analytics: sink, ...pool });
    expectFactsOfTree(sink);
    // The totals count a linked inode once, as the analytics do.
    expect(result).toEqual(expectedTotals());
    expect(sink.files).toHaveLength(made.length);
  });

  it.each([
    ['three workers, one directory a batch', { workers: 3, batchMs: 0 }],
    ['the default pool and batches', {}],
  ])('gives the builder the top directories, histograms, extensions and largest files of the tree, folded in the walk (%s)', async (_how, pool) => {
    const builder = new ScanAnalyticsBuilder(base * 1000);
    const seen = recordingAnalyticsSink();
    // Folds as the builder does; records the files told one by one (those with several links).
    const both: FoldingScanAnalyticsSink = {
      foldPlan: builder.foldPlan,
      absorb: (batch) => builder.absorb(batch),
      file: (...args) => (builder.file(...args), seen.file(...args)),
      directory: (path, subdirectories) => (builder.directory(path, subdirectories), seen.directory(path, subdirectories)),
    };
    const result = await walkTree(root, { signal: new AbortController().signal, onProgress: () => {}, analytics: both, ...pool });
    expect(result).toEqual(expectedTotals());
    // Only the files with several links were told one by one; the rest came folded.
    expect(seen.files).toHaveLength(made.filter((file) => file.links.length > 0).length);
    const analytics = builder.result();

    // A linked inode counts under the name the walk met first (any of them): taken from the calls.
    const counted = made.map((file) => ({
      ...file,
      path: file.links.length === 0 ? file.path : (seen.files.find((recorded) => [file.path, ...file.links].includes(recorded.path))?.path ?? ''),
    }));
    const directories = new Map<string, { bytes: number; files: number }>();
    for (const file of counted) {
      const parts = file.path.split('/').slice(1, -1);
      for (let depth = 1; depth <= Math.min(3, parts.length); depth += 1) {
        const path = `/${parts.slice(0, depth).join('/')}`;
        const sums = directories.get(path) ?? { bytes: 0, files: 0 };
        directories.set(path, { bytes: sums.bytes + file.bytes, files: sums.files + 1 });
      }
    }
    expect(byPath(analytics.top_directories.filter((row) => row.files > 0))).toEqual(byPath([...directories].map(([path, sums]) => ({ path, ...sums }))));
    expect(analytics.top_directories_complete).toBe(true);

    const bucket = (ms: number, bounds: number[]) => bounds.filter((bound) => ms >= bound).length;
    const ageBounds = [30, 90, 365, 3 * 365].map((days) => days * DAY * 1000);
    const sizeBounds = [4 * 1024, 1024 ** 2, 100 * 1024 ** 2, 1024 ** 3];
    const histogram = (labels: readonly string[], index: (file: MadeFile) => number) =>
      labels.map((label, i) => {
        const inside = made.filter((file) => index(file) === i);
        return { bucket: label, files: inside.length, bytes: inside.reduce((sum, file) => sum + file.bytes, 0) };
      });
    const ages = ['< 30 d', '30-90 d', '90 d-1 y', '1-3 y', '> 3 y'];
    expect(analytics.age_histogram).toEqual(histogram(ages, (file) => bucket(base * 1000 - file.modifiedMs, ageBounds)));
    expect(analytics.access_histogram).toEqual(histogram(ages, (file) => bucket(base * 1000 - (file.accessedMs ?? 0), ageBounds)));
    expect(analytics.size_histogram).toEqual(histogram(['< 4 KiB', '< 1 MiB', '< 100 MiB', '< 1 GiB', '>= 1 GiB'], (file) => bucket(file.bytes, sizeBounds)));

    // Fewer than 50 extensions: every one is listed, nothing is left for 'other'.
    const extensions = new Map<string, { files: number; bytes: number }>();
    for (const file of made) {
      const name = file.path.slice(file.path.lastIndexOf('/') + 1);
      const dot = name.lastIndexOf('.');
      const extension = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
      const sums = extensions.get(extension) ?? { files: 0, bytes: 0 };
      extensions.set(extension, { files: sums.files + 1, bytes: sums.bytes + file.bytes });
    }
    const byExtension = (rows: { extension: string }[]) => [...rows].sort((a, b) => (a.extension < b.extension ? -1 : 1));
    expect(byExtension(analytics.extensions)).toEqual(byExtension([...extensions].map(([extension, sums]) => ({ extension, ...sums }))));
    expect(analytics.extensions_other).toEqual({ files: 0, bytes: 0 });

    const largest = [...counted].sort((a, b) => b.bytes - a.bytes || (a.path < b.path ? -1 : 1)).slice(0, 20);
    expect(analytics.largest_files).toEqual(
      largest.map((file) => ({ path: file.path, bytes: file.bytes, modified_at: new Date(file.modifiedMs).toISOString() })),
    );
  });

  it('folds in the walk threads what a call per file tells the builder', async () => {
    // One worker walks in the same order every time, so a linked inode counts under the same name.
    const folded = new ScanAnalyticsBuilder(base * 1000);
    const perFile = new ScanAnalyticsBuilder(base * 1000);
    const told = { file: perFile.file.bind(perFile), directory: perFile.directory.bind(perFile) };
    const options = { signal: new AbortController().signal, onProgress: () => {}, workers: 1, batchMs: 0 };
    await walkTree(root, { ...options, analytics: folded });
    await walkTree(root, { ...options, analytics: told });
    expect(folded.result()).toEqual(perFile.result());
  });

  it('counts once an inode whose links land in batches of different workers', async () => {
    const tree = mkdtempSync(join(tmpdir(), 'dms-walk-links-'));
    try {
      const names = Array.from({ length: 12 }, (_, i) => join(tree, `d${i}`, 'shared.iso'));
      for (const [i, name] of names.entries()) {
        mkdirSync(dirname(name));
        writeFileSync(join(dirname(name), 'own.txt'), 'x'.repeat(i + 1));
      }
      writeFileSync(names[0]!, Buffer.alloc(50_000));
      for (const name of names.slice(1)) linkSync(names[0]!, name);
      const own = (12 * 13) / 2;
      for (let round = 0; round < 4; round += 1) {
        const builder = new ScanAnalyticsBuilder(Date.now());
        const result = await walkTree(tree, { signal: new AbortController().signal, onProgress: () => {}, analytics: builder, workers: 4, batchMs: 0 });
        expect(result).toEqual({ file_count: 13, file_size_sum: 50_000 + own });
        const analytics = builder.result();
        expect(analytics.extensions).toEqual([
          { extension: 'iso', files: 1, bytes: 50_000 },
          { extension: 'txt', files: 12, bytes: own },
        ]);
        expect(analytics.size_histogram.reduce((sum, row) => sum + row.files, 0)).toBe(13);
        expect(analytics.largest_files.filter((file) => file.path.endsWith('/shared.iso'))).toHaveLength(1);
        expect(analytics.top_directories.reduce((sum, row) => sum + row.files, 0)).toBe(13);
      }
    } finally {
      rmSync(tree, { recursive: true, force: true });
    }
  });

  it('keeps the largest files of a batch by code point order among files of one size', async () => {
    const tree = mkdtempSync(join(tmpdir(), 'dms-walk-ties-'));
    try {
      // UTF-16 order puts an astral code point before U+E000-U+FFFF; code point order after.
      const names = Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? `\u{1F600}${i}` : i % 3 === 1 ? `\uFFFD${i}` : `a${i}`));
      for (const name of names) writeFileSync(join(tree, name), 'same');
      const builder = new ScanAnalyticsBuilder(Date.now());
      await walkTree(tree, { signal: new AbortController().signal, onProgress: () => {}, analytics: builder, workers: 1, batchMs: 0 });
      const utf8Order = names.map((name) => `/${name}`).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
      expect(builder.result().largest_files.map((file) => file.path)).toEqual(utf8Order.slice(0, 20));
    } finally {
      rmSync(tree, { recursive: true, force: true });
    }
  });

  it('counts a linked inode once without analytics too, in both engines', async () => {
    const options = { signal: new AbortController().signal, onProgress: () => {} };
    expect(await walkTree(root, { ...options, workers: 2, batchMs: 0 })).toEqual(expectedTotals());
    expect(await findWalk(root, options)).toEqual(expectedTotals());
  });

  it('reports a directory that vanished before the walk reached it with no subdirectories', async () => {
    const tree = mkdtempSync(join(tmpdir(), 'dms-walk-vanish-'));
    try {
      writeFileSync(join(tree, 'kept'), 'x');
      mkdirSync(join(tree, 'gone', 'below'), { recursive: true });
      writeFileSync(join(tree, 'gone', 'below', 'f'), 'y');
      const sink = recordingAnalyticsSink();
      let first = true;
      const result = await walkTree(tree, {
        signal: new AbortController().signal,
        workers: 1,
        batchMs: 0,
        progressIntervalMs: 0,
        analytics: sink,
        // After the root alone was listed, before its subdirectories are handed out.
        onProgress: () => {
          if (first) rmSync(join(tree, 'gone'), { recursive: true });
          first = false;
        },
      });
      expect(result).toEqual({ file_count: 1, file_size_sum: 1 });
      expect(sink.files.map(fact)).toEqual([{ path: '/kept', bytes: 1, modifiedMs: expect.any(Number), accessedMs: expect.any(Number) }]);
      expect(byPath(sink.directories.map(({ path, subdirectories }) => ({ path, subdirectories })))).toEqual([
        { path: '/', subdirectories: 1 },
        { path: '/gone', subdirectories: 0 },
      ]);
    } finally {
      rmSync(tree, { recursive: true, force: true });
    }
  });
});

// Root reads a mode-000 directory, so the walk runs in a child process as nobody (65534);
// the tree is made readable to it, all but the locked directory.
const canSwitchUser = process.getuid?.() === 0;
if (!canSwitchUser) {
  if (process.env['CI'] === 'true') throw new Error('CI runs as root, to walk an unreadable directory as another user');
  console.log('[skip] unreadable directory: not root, cannot run the walk as another user');
}

describe.skipIf(!canSwitchUser)('local walk meeting an unreadable directory', () => {
  it('reports it with no subdirectories, and the scan fails on it as without analytics', () => {
    const tree = mkdtempSync(join(tmpdir(), 'dms-walk-locked-'));
    try {
      chmodSync(tree, 0o755);
      writeFileSync(join(tree, 'open.txt'), 'abc');
      mkdirSync(join(tree, 'locked', 'inner'), { recursive: true });
      writeFileSync(join(tree, 'locked', 'secret'), 'not counted');
      chmodSync(join(tree, 'locked'), 0o000);
      const script = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'testing', 'walk-as-user.ts');
      const child = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', script, tree], { uid: 65534, gid: 65534, encoding: 'utf8' });
      expect(child.stderr).toBe('');
      const outcome = JSON.parse(child.stdout) as { error?: string; files: RecordedFile[]; directories: RecordedDirectory[] };
      expect(outcome.error).toBe("permission denied on path 'locked'");
      expect(outcome.directories.map(({ path, subdirectories }) => ({ path, subdirectories }))).toContainEqual({ path: '/locked', subdirectories: 0 });
      expect(outcome.files.map((file) => file.path)).not.toContain('/locked/secret');
    } finally {
      rmSync(tree, { recursive: true, force: true });
    }
  });
});
