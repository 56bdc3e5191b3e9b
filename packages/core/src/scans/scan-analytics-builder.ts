import type { FoldedBatch, FoldingScanAnalyticsSink, ScanFoldPlan } from '../ports/share-driver.js';
import {
  ageBuckets,
  extensionLimit,
  largestFileLimit,
  sizeBuckets,
  topDirectoryLimit,
  topDirectoryMaxDepth,
  type HistogramRow,
  type ScanAnalytics,
  type TopDirectory,
} from '../domain/scan-analytics.js';
import { TopK } from './top-k.js';
import { answerPath } from './answer-path.js';
import { fileExtension } from './file-extension.js';
import { ExtensionTotals } from './extension-totals.js';
import { codePointBefore } from './code-point-order.js';

const day = 86_400_000;
/** Lower bounds of the age buckets after the first, in ms (a year is 365 days). */
const ageBounds = [30 * day, 90 * day, 365 * day, 3 * 365 * day];
/** Upper bounds (exclusive) of the size buckets before the last. */
const sizeBounds = [4 * 1024, 1024 ** 2, 100 * 1024 ** 2, 1024 ** 3];

function bucketOf(value: number, bounds: readonly number[]): number {
  let index = 0;
  while (index < bounds.length && value >= bounds[index]!) index += 1;
  return index;
}

/** A directory whose subtree is still being walked: its totals so far and what it waits for. */
interface InFlight {
  bytes: number;
  files: number;
  /** Its own `directory` call has come. */
  listed: boolean;
  /** Subdirectories announced by that call. */
  announced: number;
  /** Subdirectories whose subtree has been folded in. */
  folded: number;
}

interface RankedFile {
  path: string;
  bytes: number;
  modifiedMs: number;
}

export interface ScanAnalyticsLimits {
  topDirectories: number;
  extensions: number;
  largestFiles: number;
}

const defaultLimits: ScanAnalyticsLimits = { topDirectories: topDirectoryLimit, extensions: extensionLimit, largestFiles: largestFileLimit };

/** `/` is depth 0, `/a` 1, `/a/b` 2; stops counting past the deepest ranked depth. */
function depthOf(path: string): number {
  if (path === '/') return 0;
  let depth = 0;
  for (let index = path.indexOf('/'); index !== -1 && depth <= topDirectoryMaxDepth; index = path.indexOf('/', index + 1)) depth += 1;
  return depth;
}

function parentOf(path: string): string | null {
  if (path === '/') return null;
  const slash = path.lastIndexOf('/');
  return slash <= 0 ? '/' : path.slice(0, slash);
}

const byBytes = (a: TopDirectory, b: TopDirectory): boolean =>
  a.bytes !== b.bytes ? a.bytes > b.bytes : a.files !== b.files ? a.files > b.files : a.path < b.path;
const byFiles = (a: TopDirectory, b: TopDirectory): boolean =>
  a.files !== b.files ? a.files > b.files : a.bytes !== b.bytes ? a.bytes > b.bytes : a.path < b.path;
// Ties by code point order, which a walker in another language can keep too (UTF-8 byte order).
const largerFile = (a: RankedFile, b: RankedFile): boolean => (a.bytes !== b.bytes ? a.bytes > b.bytes : codePointBefore(a.path, b.path));

function isoTime(ms: number): string | null {
  return Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : null;
}

/**
 * Computes a scan's analytics in one pass while the walk runs (decision 155): a directory's
 * totals are folded into its parent once the directory's own `directory` call and every
 * subdirectory it announced have come, in whatever order a parallel walk delivers them, so only
 * directories still being walked are held. Rankings are bounded top-k lists, histograms fixed
 * arrays, extensions a bounded map; nothing is kept per file.
 *
 * `now` is the scan's clock (ms), the reference of the age histograms. Call `result()` once the
 * walk has ended; a walk that stopped early leaves directories in flight, which `result()` folds
 * as they are.
 */
export class ScanAnalyticsBuilder implements FoldingScanAnalyticsSink {
  private readonly inFlight = new Map<string, InFlight>();
  private readonly topByBytes: TopK<TopDirectory>;
  private readonly topByFiles: TopK<TopDirectory>;
  private readonly largest: TopK<RankedFile>;
  private readonly extensions: ExtensionTotals;
  private readonly limits: ScanAnalyticsLimits;
  private rankedDirectories = 0;
  private readonly modifiedFiles = ageBuckets.map(() => 0);
  private readonly modifiedBytes = ageBuckets.map(() => 0);
  private readonly accessedFiles = ageBuckets.map(() => 0);
  private readonly accessedBytes = ageBuckets.map(() => 0);
  private accessDiffers = false;
  private readonly sizeFiles = sizeBuckets.map(() => 0);
  private readonly sizeBytes = sizeBuckets.map(() => 0);
  /** The last directory a file came for: walks report a directory's files together. */
  private lastDirectory: string | null = null;
  private lastNode: InFlight | null = null;
  private finished: ScanAnalytics | null = null;

  constructor(
    private readonly now: number,
    limits: Partial<ScanAnalyticsLimits> = {},
  ) {
    this.limits = { ...defaultLimits, ...limits };
    this.topByBytes = new TopK(this.limits.topDirectories, byBytes);
    this.topByFiles = new TopK(this.limits.topDirectories, byFiles);
    this.largest = new TopK(this.limits.largestFiles, largerFile);
    this.extensions = new ExtensionTotals();
  }

  /** Directories whose subtree is not yet complete: the builder's only memory that grows with the tree. */
  get directoriesInFlight(): number {
    return this.inFlight.size;
  }

  file(directory: string, name: string, bytes: number, modifiedMs: number, accessedMs: number | null): void {
    const node = directory === this.lastDirectory && this.lastNode !== null ? this.lastNode : this.nodeOf(directory);
    this.lastDirectory = directory;
    this.lastNode = node;
    node.bytes += bytes;
    node.files += 1;

    const age = bucketOf(this.now - modifiedMs, ageBounds);
    this.modifiedFiles[age]! += 1;
    this.modifiedBytes[age]! += bytes;
    if (accessedMs !== null) {
      const accessAge = bucketOf(this.now - accessedMs, ageBounds);
      this.accessedFiles[accessAge]! += 1;
      this.accessedBytes[accessAge]! += bytes;
      if (accessedMs !== modifiedMs) this.accessDiffers = true;
    }
    const size = bucketOf(bytes, sizeBounds);
    this.sizeFiles[size]! += 1;
    this.sizeBytes[size]! += bytes;

    this.extensions.add(fileExtension(name), bytes);

    this.offerLargest(directory === '/' ? `/${name}` : `${directory}/${name}`, bytes, modifiedMs);
  }

  get foldPlan(): ScanFoldPlan {
    return { now: this.now, ageBounds, sizeBounds, largestFiles: this.limits.largestFiles };
  }

  /** A batch folded by the walker's threads: the same sums as a `file` call per file, then each directory. */
  absorb(batch: FoldedBatch): void {
    const ages = ageBuckets.length;
    const sizes = sizeBuckets.length;
    const rows = batch.histograms;
    if (rows.length !== 4 * ages + 2 * sizes) throw new Error(`a folded batch has ${rows.length} histogram numbers, not ${4 * ages + 2 * sizes}`);
    for (let index = 0; index < ages; index += 1) {
      this.modifiedFiles[index]! += rows[index]!;
      this.modifiedBytes[index]! += rows[ages + index]!;
      this.accessedFiles[index]! += rows[2 * ages + index]!;
      this.accessedBytes[index]! += rows[3 * ages + index]!;
    }
    for (let index = 0; index < sizes; index += 1) {
      this.sizeFiles[index]! += rows[4 * ages + index]!;
      this.sizeBytes[index]! += rows[4 * ages + sizes + index]!;
    }
    if (batch.accessDiffers) this.accessDiffers = true;
    batch.extensions.forEach((extension, index) => {
      // The walker's text after the last dot; the rules (length, case) are applied here.
      this.extensions.add(fileExtension(`x.${extension}`), batch.extensionTotals[2 * index + 1]!, batch.extensionTotals[2 * index]!);
    });
    for (const file of batch.largest) this.offerLargest(file.path, file.bytes, file.modifiedMs);
    for (const folded of batch.directories) {
      const node = this.nodeOf(folded.path);
      node.files += folded.files;
      node.bytes += folded.bytes;
      this.directory(folded.path, folded.subdirectories);
    }
  }

  directory(path: string, subdirectories: number): void {
    const node = this.nodeOf(path);
    node.listed = true;
    node.announced = subdirectories;
    this.settle(path, node);
  }

  result(): ScanAnalytics {
    if (this.finished !== null) return this.finished;
    // A walk that ended early (or a driver that announced more than it reported): fold what is
    // left, deepest first, so every counted file still reaches the rankings once.
    // A descendant's path is longer than its ancestors', so longest first folds children first.
    while (this.inFlight.size > 0) {
      const left = [...this.inFlight.keys()].sort((a, b) => b.length - a.length);
      for (const path of left) {
        const node = this.inFlight.get(path);
        if (node === undefined) continue;
        node.listed = true;
        node.announced = Math.min(node.announced, node.folded);
        this.settle(path, node);
      }
    }
    this.finished = this.build();
    return this.finished;
  }

  private build(): ScanAnalytics {
    const union = new Map<string, TopDirectory>();
    for (const entry of [...this.topByBytes.sorted(), ...this.topByFiles.sorted()]) union.set(entry.path, entry);
    const topDirectories = [...union.values()].sort((a, b) => (byBytes(a, b) ? -1 : byBytes(b, a) ? 1 : 0));
    const histogram = <B extends string>(buckets: readonly B[], files: number[], bytes: number[]): HistogramRow<B>[] =>
      buckets.map((bucket, index) => ({ bucket, files: files[index]!, bytes: bytes[index]! }));
    const accessCounted = this.accessedFiles.some((files) => files > 0);
    const { top, other } = this.extensions.ranked(this.limits.extensions);
    return {
      top_directories: topDirectories,
      top_directories_complete: topDirectories.length === this.rankedDirectories,
      age_histogram: histogram(ageBuckets, this.modifiedFiles, this.modifiedBytes),
      access_histogram: accessCounted && this.accessDiffers ? histogram(ageBuckets, this.accessedFiles, this.accessedBytes) : null,
      size_histogram: histogram(sizeBuckets, this.sizeFiles, this.sizeBytes),
      extensions: top,
      extensions_other: other,
      largest_files: this.largest.sorted().map((file) => ({ path: file.path, bytes: file.bytes, modified_at: isoTime(file.modifiedMs) })),
    };
  }

  private offerLargest(path: string, bytes: number, modifiedMs: number): void {
    // Most files of a large walk are smaller than the 20th largest: turned away without an allocation.
    const bar = this.largest.bar();
    if (bar !== undefined && bytes < bar.bytes) return;
    const probe: RankedFile = { path: '', bytes, modifiedMs };
    if (this.largest.admits(probe)) {
      // An empty path ranks before any other of the same size: the real one is built only here.
      probe.path = answerPath(path);
      this.largest.offer(probe);
    }
  }

  private nodeOf(path: string): InFlight {
    let node = this.inFlight.get(path);
    if (node === undefined) {
      node = { bytes: 0, files: 0, listed: false, announced: 0, folded: 0 };
      this.inFlight.set(path, node);
    }
    return node;
  }

  /** Folds `path` and then each ancestor whose subtree is thereby complete. */
  private settle(start: string, startNode: InFlight): void {
    let path = start;
    let node = startNode;
    while (node.listed && node.folded >= node.announced) {
      this.inFlight.delete(path);
      if (this.lastNode === node) this.lastNode = null;
      this.rank(path, node);
      const parentPath = parentOf(path);
      if (parentPath === null) return;
      const parent = this.nodeOf(parentPath);
      parent.bytes += node.bytes;
      parent.files += node.files;
      parent.folded += 1;
      path = parentPath;
      node = parent;
    }
  }

  private rank(path: string, node: InFlight): void {
    const depth = depthOf(path);
    if (depth < 1 || depth > topDirectoryMaxDepth) return;
    this.rankedDirectories += 1;
    const probe: TopDirectory = { path, bytes: node.bytes, files: node.files };
    const byBytesAdmits = this.topByBytes.admits(probe);
    const byFilesAdmits = this.topByFiles.admits(probe);
    if (!byBytesAdmits && !byFilesAdmits) return;
    const entry: TopDirectory = { path: answerPath(path), bytes: node.bytes, files: node.files };
    this.topByBytes.offer(entry);
    this.topByFiles.offer(entry);
  }
}
