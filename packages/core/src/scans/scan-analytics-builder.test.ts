import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ScanAnalyticsBuilder, type ScanAnalyticsLimits } from './scan-analytics-builder.js';
import { ageBuckets, sizeBuckets, type ScanAnalytics, type TopDirectory } from '../domain/scan-analytics.js';
import { fileExtension } from './file-extension.js';
import { codePointBefore } from './code-point-order.js';
import type { FoldedBatch, ScanFoldPlan } from '../ports/share-driver.js';

const day = 86_400_000;
const now = Date.UTC(2026, 10, 28, 12);

interface TreeFile {
  directory: number;
  name: string;
  bytes: number;
  modifiedMs: number;
  accessedMs: number | null;
}

interface Tree {
  /** Index 0 is the root; each other directory's parent has a smaller index. */
  paths: string[];
  parents: number[];
  files: TreeFile[];
}

const directoryNames = ['a', 'b', 'dé', '数据', 'x y', 'z.d'];
const fileStems = ['report.pdf', 'Photo.JPG', 'archive.tar.gz', '.bashrc', 'README', 'trailing.', 'x.verylongextensionname', 'data.csv', 'ü.txt'];

const treeArbitrary = fc
  .record({
    parentPicks: fc.array(fc.nat(), { maxLength: 40 }),
    names: fc.array(fc.nat(directoryNames.length - 1), { maxLength: 40 }),
    files: fc.array(
      fc.record({
        directoryPick: fc.nat(),
        stem: fc.nat(fileStems.length - 1),
        bytes: fc.oneof(fc.nat(5000), fc.nat(3 * 1024 ** 3), fc.constantFrom(0, 4095, 4096, 1024 ** 2, 1024 ** 3)),
        ageDays: fc.oneof(fc.integer({ min: -3, max: 2000 }), fc.constantFrom(30, 90, 365, 1095)),
        accessDays: fc.integer({ min: 0, max: 2000 }),
      }),
      { maxLength: 120 },
    ),
    accessMode: fc.constantFrom('none', 'same-as-modified', 'varied'),
  })
  .map(({ parentPicks, names, files, accessMode }): Tree => {
    const paths = ['/'];
    const parents = [-1];
    parentPicks.forEach((pick, index) => {
      const parent = pick % paths.length;
      const name = `${directoryNames[names[index] ?? 0]}${index}`;
      parents.push(parent);
      paths.push(parent === 0 ? `/${name}` : `${paths[parent]}/${name}`);
    });
    return {
      paths,
      parents,
      files: files.map((file, index) => {
        const modifiedMs = now - file.ageDays * day;
        const accessedMs = accessMode === 'none' ? null : accessMode === 'same-as-modified' ? modifiedMs : now - file.accessDays * day;
        return { directory: file.directoryPick % paths.length, name: `${index}${fileStems[file.stem]}`, bytes: file.bytes, modifiedMs, accessedMs };
      }),
    };
  });

/** A random order a parallel walk could produce: anything, as long as a directory's files precede its own call. */
function feed(tree: Tree, sink: ScanAnalyticsBuilder, random: () => number): void {
  type Event = { key: number; run: () => void };
  const lastFileKey = tree.paths.map(() => 0);
  const events: Event[] = tree.files.map((file) => {
    const key = random();
    lastFileKey[file.directory] = Math.max(lastFileKey[file.directory]!, key);
    return { key, run: () => sink.file(tree.paths[file.directory]!, file.name, file.bytes, file.modifiedMs, file.accessedMs) };
  });
  tree.paths.forEach((path, index) => {
    const subdirectories = tree.parents.filter((parent) => parent === index).length;
    events.push({ key: Math.max(random(), lastFileKey[index]!) + 1e-9, run: () => sink.directory(path, subdirectories) });
  });
  events.sort((a, b) => a.key - b.key).forEach((event) => event.run());
}

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const byBytes = (a: TopDirectory, b: TopDirectory) => b.bytes - a.bytes || b.files - a.files || (a.path < b.path ? -1 : 1);
const byFiles = (a: TopDirectory, b: TopDirectory) => b.files - a.files || b.bytes - a.bytes || (a.path < b.path ? -1 : 1);

function ageIndex(ageMs: number): number {
  const days = ageMs / day;
  return days < 30 ? 0 : days < 90 ? 1 : days < 365 ? 2 : days < 1095 ? 3 : 4;
}

function sizeIndex(bytes: number): number {
  return bytes < 4096 ? 0 : bytes < 1024 ** 2 ? 1 : bytes < 100 * 1024 ** 2 ? 2 : bytes < 1024 ** 3 ? 3 : 4;
}

/** The same answer computed the obvious way, everything in memory. */
function naive(tree: Tree, limits: ScanAnalyticsLimits): ScanAnalytics {
  const totals = tree.paths.map(() => ({ bytes: 0, files: 0 }));
  for (const file of tree.files) {
    for (let directory = file.directory; directory !== -1; directory = tree.parents[directory]!) {
      totals[directory]!.bytes += file.bytes;
      totals[directory]!.files += 1;
    }
  }
  const depth = (index: number): number => (index === 0 ? 0 : 1 + depth(tree.parents[index]!));
  const ranked = tree.paths.flatMap((path, index) => (depth(index) >= 1 && depth(index) <= 3 ? [{ path, ...totals[index]! }] : []));
  const union = new Map<string, TopDirectory>();
  for (const entry of [...[...ranked].sort(byBytes).slice(0, limits.topDirectories), ...[...ranked].sort(byFiles).slice(0, limits.topDirectories)]) {
    union.set(entry.path, entry);
  }
  const topDirectories = [...union.values()].sort(byBytes);

  const histogram = <B extends string>(buckets: readonly B[], index: (file: TreeFile) => number | null) =>
    buckets.map((bucket, at) => {
      const inBucket = tree.files.filter((file) => index(file) === at);
      return { bucket, files: inBucket.length, bytes: inBucket.reduce((sum, file) => sum + file.bytes, 0) };
    });
  const accessGiven = tree.files.filter((file) => file.accessedMs !== null);
  const accessFlat = accessGiven.length === 0 || accessGiven.every((file) => file.accessedMs === file.modifiedMs);

  const extensionTotals = new Map<string, { files: number; bytes: number }>();
  for (const file of tree.files) {
    const extension = fileExtension(file.name);
    const entry = extensionTotals.get(extension) ?? { files: 0, bytes: 0 };
    entry.files += 1;
    entry.bytes += file.bytes;
    extensionTotals.set(extension, entry);
  }
  const extensions = [...extensionTotals]
    .map(([extension, entry]) => ({ extension, ...entry }))
    .sort((a, b) => b.bytes - a.bytes || b.files - a.files || (a.extension < b.extension ? -1 : 1));
  const rest = extensions.slice(limits.extensions);

  const filePath = (file: TreeFile) => (file.directory === 0 ? `/${file.name}` : `${tree.paths[file.directory]}/${file.name}`);
  const largest = [...tree.files].sort((a, b) => b.bytes - a.bytes || (filePath(a) < filePath(b) ? -1 : 1)).slice(0, limits.largestFiles);

  return {
    top_directories: topDirectories,
    top_directories_complete: topDirectories.length === ranked.length,
    age_histogram: histogram(ageBuckets, (file) => ageIndex(now - file.modifiedMs)),
    access_histogram: accessFlat ? null : histogram(ageBuckets, (file) => (file.accessedMs === null ? null : ageIndex(now - file.accessedMs))),
    size_histogram: histogram(sizeBuckets, (file) => sizeIndex(file.bytes)),
    extensions: extensions.slice(0, limits.extensions),
    extensions_other: { files: rest.reduce((sum, row) => sum + row.files, 0), bytes: rest.reduce((sum, row) => sum + row.bytes, 0) },
    largest_files: largest.map((file) => ({ path: filePath(file), bytes: file.bytes, modified_at: new Date(file.modifiedMs).toISOString() })),
  };
}

/** What a folding walker sends for `directories` of the tree: the port's rules, computed plainly. */
function foldBatch(tree: Tree, directories: number[], plan: ScanFoldPlan): FoldedBatch {
  const bucket = (value: number, bounds: readonly number[]) => bounds.filter((bound) => value >= bound).length;
  const ages = plan.ageBounds.length + 1;
  const sizes = plan.sizeBounds.length + 1;
  const histograms = new Float64Array(4 * ages + 2 * sizes);
  const extensions = new Map<string, [number, number]>();
  const files = tree.files.filter((file) => directories.includes(file.directory));
  let accessDiffers = false;
  for (const file of files) {
    const age = bucket(plan.now - file.modifiedMs, plan.ageBounds);
    histograms[age]! += 1;
    histograms[ages + age]! += file.bytes;
    if (file.accessedMs !== null) {
      const accessAge = bucket(plan.now - file.accessedMs, plan.ageBounds);
      histograms[2 * ages + accessAge]! += 1;
      histograms[3 * ages + accessAge]! += file.bytes;
      if (file.accessedMs !== file.modifiedMs) accessDiffers = true;
    }
    const size = bucket(file.bytes, plan.sizeBounds);
    histograms[4 * ages + size]! += 1;
    histograms[4 * ages + sizes + size]! += file.bytes;
    const dot = file.name.lastIndexOf('.');
    const extension = dot > 0 ? file.name.slice(dot + 1) : '';
    const totals = extensions.get(extension) ?? [0, 0];
    extensions.set(extension, [totals[0] + 1, totals[1] + file.bytes]);
  }
  const pathOf = (file: TreeFile) => (file.directory === 0 ? `/${file.name}` : `${tree.paths[file.directory]}/${file.name}`);
  const largest = files
    .map((file) => ({ path: pathOf(file), bytes: file.bytes, modifiedMs: file.modifiedMs }))
    .sort((a, b) => b.bytes - a.bytes || (codePointBefore(a.path, b.path) ? -1 : 1))
    .slice(0, plan.largestFiles);
  return {
    directories: directories.map((index) => {
      const own = files.filter((file) => file.directory === index);
      const subdirectories = tree.parents.filter((parent) => parent === index).length;
      return { path: tree.paths[index]!, subdirectories, files: own.length, bytes: own.reduce((sum, file) => sum + file.bytes, 0) };
    }),
    histograms,
    accessDiffers,
    extensions: [...extensions.keys()],
    extensionTotals: Float64Array.from([...extensions.values()].flat()),
    largest,
  };
}

describe('ScanAnalyticsBuilder', () => {
  it('answers the same from batches folded in a walker, in any batches and order', () => {
    const small: ScanAnalyticsLimits = { topDirectories: 4, extensions: 3, largestFiles: 5 };
    fc.assert(
      fc.property(treeArbitrary, fc.integer(), fc.integer({ min: 1, max: 6 }), fc.boolean(), (tree, seed, batches, useDefaults) => {
        const limits = useDefaults ? { topDirectories: 100, extensions: 50, largestFiles: 20 } : small;
        const builder = new ScanAnalyticsBuilder(now, limits);
        const random = seeded(seed);
        const order = tree.paths.map((_, index) => ({ index, key: random() })).sort((a, b) => a.key - b.key);
        const groups = Array.from({ length: batches }, () => [] as number[]);
        order.forEach(({ index }, at) => groups[at % batches]!.push(index));
        for (const group of groups) builder.absorb(foldBatch(tree, group, builder.foldPlan));
        expect(builder.result()).toEqual(naive(tree, limits));
        expect(builder.directoriesInFlight).toBe(0);
      }),
      { numRuns: 200 },
    );
  });

  it('refuses a folded batch whose histograms have another shape', () => {
    const builder = new ScanAnalyticsBuilder(now);
    const batch = { directories: [], histograms: new Float64Array(5), accessDiffers: false, extensions: [], extensionTotals: new Float64Array(), largest: [] };
    expect(() => builder.absorb(batch)).toThrow(/histogram numbers/);
  });

  it('answers what a naive computation over the whole tree answers, whatever order a parallel walk reports in', () => {
    const small: ScanAnalyticsLimits = { topDirectories: 4, extensions: 3, largestFiles: 5 };
    fc.assert(
      fc.property(treeArbitrary, fc.integer(), fc.boolean(), (tree, seed, useDefaults) => {
        const limits = useDefaults ? { topDirectories: 100, extensions: 50, largestFiles: 20 } : small;
        const builder = new ScanAnalyticsBuilder(now, limits);
        feed(tree, builder, seeded(seed));
        expect(builder.result()).toEqual(naive(tree, limits));
        expect(builder.directoriesInFlight).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  it('folds a subtree whose children complete before the parent is listed', () => {
    const builder = new ScanAnalyticsBuilder(now);
    builder.file('/a/b', 'x.log', 10, now, null);
    builder.directory('/a/b', 0);
    builder.file('/a', 'y.log', 5, now, null);
    expect(builder.directoriesInFlight).toBe(1);
    builder.directory('/a', 1);
    builder.directory('/', 1);
    expect(builder.directoriesInFlight).toBe(0);
    expect(builder.result().top_directories).toEqual([
      { path: '/a', bytes: 15, files: 2 },
      { path: '/a/b', bytes: 10, files: 1 },
    ]);
  });

  it('folds a chain 2,000 deep without recursion, holding only its ancestors while it is walked', () => {
    const builder = new ScanAnalyticsBuilder(now);
    let path = '/';
    for (let depth = 0; depth < 2_000; depth += 1) {
      builder.directory(path, 1);
      path = path === '/' ? '/d' : `${path}/d`;
    }
    expect(builder.directoriesInFlight).toBe(2_000);
    builder.file(path, 'leaf.bin', 7, now, null);
    builder.directory(path, 0);
    expect(builder.directoriesInFlight).toBe(0);
    expect(builder.result().top_directories).toEqual([
      { path: '/d', bytes: 7, files: 1 },
      { path: '/d/d', bytes: 7, files: 1 },
      { path: '/d/d/d', bytes: 7, files: 1 },
    ]);
  });

  it('folds what a walk that stopped early left in flight, once, when asked for the result', () => {
    const builder = new ScanAnalyticsBuilder(now);
    builder.file('/a/b', 'x', 3, now, null);
    builder.directory('/a/b', 0);
    builder.file('/a', 'y', 4, now, null);
    builder.directory('/a', 2);
    const result = builder.result();
    expect(result.top_directories).toEqual([
      { path: '/a', bytes: 7, files: 2 },
      { path: '/a/b', bytes: 3, files: 1 },
    ]);
    expect(builder.result()).toBe(result);
  });

  it('leaves the access histogram out when access times are absent or equal modification times', () => {
    const flat = new ScanAnalyticsBuilder(now);
    flat.file('/', 'a', 1, now - 100 * day, now - 100 * day);
    flat.directory('/', 0);
    expect(flat.result().access_histogram).toBeNull();
    const varied = new ScanAnalyticsBuilder(now);
    varied.file('/', 'a', 1, now - 100 * day, now - day);
    varied.directory('/', 0);
    expect(varied.result().access_histogram?.[0]).toEqual({ bucket: '< 30 d', files: 1, bytes: 1 });
  });

  it('stays under 200 kB serialized with hostile names, and keeps every answered path within 600 bytes', () => {
    const builder = new ScanAnalyticsBuilder(now);
    const hostile = (seed: number) => `\u0001${String(seed)}${'\u0007😀é"\\'.repeat(60)}`;
    let deep = '';
    for (let index = 0; index < 400; index += 1) {
      const top = `/${hostile(index)}`;
      deep = `${top}/${hostile(index + 1)}/${hostile(index + 2)}`;
      for (let level = 0; level < 8; level += 1) deep = `${deep}/${hostile(level)}`;
      // Odd directories hold the bytes, even ones the files: both rankings fill, with different paths.
      const files = index % 2 === 0 ? 5 : 1;
      for (let file = 0; file < files; file += 1) {
        builder.file(deep, `${hostile(file)}.${'\u0002'.repeat(16)}`, index % 2 === 0 ? 1 : 1_000_000 + index, now, null);
      }
      builder.file(deep, `${hostile(index)}.e${index}`, 1_000 + index, now, null);
      builder.directory(deep, 0);
    }
    const result = builder.result();
    const encoded = new TextEncoder().encode(JSON.stringify(result)).length;
    expect(encoded).toBeLessThanOrEqual(200_000);
    expect(result.top_directories.length).toBe(200);
    expect(result.largest_files.length).toBe(20);
    for (const { path } of [...result.top_directories, ...result.largest_files]) {
      expect(new TextEncoder().encode(JSON.stringify(path)).length - 2).toBeLessThanOrEqual(600);
      expect(path.startsWith('/')).toBe(true);
    }
  });
});
