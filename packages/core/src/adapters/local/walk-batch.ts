import type { FoldedBatch, FoldingScanAnalyticsSink, ScanAnalyticsSink, ScanProgress } from '../../ports/share-driver.js';

/** A directory a walk worker reached, as it hands it back with analytics on. */
export interface ListedDirectory {
  /** Share-relative, '/'-separated, '/' for the root. */
  path: string;
  /** Subdirectories the walk pushed from it (each reported later by an entry of its own). */
  subdirectories: number;
  /** Its regular files' names joined by '/' (no name holds one); each has four numbers in the batch's `facts`. */
  names: string;
}

/** What a walk worker answers for one batch (see walkWorkerSource). */
export interface BatchResult {
  files: number;
  bytes: number;
  dirs: number;
  pending: string[];
  /** `dev:ino` of files with several hard links, counted here once across workers. */
  links: string[];
  linkBytes: number[];
  listed?: ListedDirectory[];
  /** Per listed name: bytes, mtime ms, atime ms, index in `links` or -1. */
  facts?: Float64Array;
  error?: { code?: string; path?: string; message: string };
}

/** Fields per file in `facts`. */
const FACT_FIELDS = 4;

/**
 * Adds a batch to the running totals and tells the sink its files and directories, in the
 * order the worker listed them (a directory's files, then the directory). A file with several
 * links counts the first time its inode comes, whichever worker found it.
 */
export function absorbBatch(result: BatchResult, totals: ScanProgress, seenInodes: Set<string>, sink: ScanAnalyticsSink | undefined): void {
  totals.file_count += result.files;
  totals.file_size_sum += result.bytes;
  totals.directories += result.dirs;
  const firstLink = result.links.map((key, index) => {
    if (seenInodes.has(key)) return false;
    seenInodes.add(key);
    totals.file_count += 1;
    totals.file_size_sum += result.linkBytes[index] ?? 0;
    return true;
  });
  if (sink === undefined || result.listed === undefined || result.facts === undefined) return;
  const facts = result.facts;
  let at = 0;
  for (const directory of result.listed) {
    if (directory.names === '') {
      sink.directory(directory.path, directory.subdirectories);
      continue;
    }
    for (const name of directory.names.split('/')) {
      const link = facts[at + 3] as number;
      if (link < 0 || firstLink[link] === true) {
        sink.file(directory.path, name, facts[at] as number, facts[at + 1] as number, facts[at + 2] as number);
      }
      at += FACT_FIELDS;
    }
    sink.directory(directory.path, directory.subdirectories);
  }
}

/** A file with several hard links, as a folding walker hands it back: counted once across workers here. */
export interface LinkedFile {
  /** `dev:ino`. */
  key: string;
  bytes: number;
  /** Share-relative directory and name, with analytics (else both ''). */
  directory: string;
  name: string;
  modifiedMs: number;
  accessedMs: number;
}

/** What a folding walker (worker threads or the native walker) answers for one batch. */
export interface FoldedWalkBatch {
  /** Regular files with one link, their bytes, and directories listed. */
  files: number;
  bytes: number;
  dirs: number;
  linked: LinkedFile[];
  /** With analytics: the batch's files with one link, folded (see FoldedBatch). */
  folded?: FoldedBatch;
  error?: { code?: string; path?: string; message: string };
}

/**
 * Adds a folded batch to the running totals and hands its analytics to the sink: first each
 * linked file met for the first time (a directory's files come before its own entry), then the
 * folded rest.
 */
export function absorbFoldedBatch(batch: FoldedWalkBatch, totals: ScanProgress, seenInodes: Set<string>, sink: FoldingScanAnalyticsSink | undefined): void {
  totals.file_count += batch.files;
  totals.file_size_sum += batch.bytes;
  totals.directories += batch.dirs;
  for (const file of batch.linked) {
    if (seenInodes.has(file.key)) continue;
    seenInodes.add(file.key);
    totals.file_count += 1;
    totals.file_size_sum += file.bytes;
    sink?.file(file.directory, file.name, file.bytes, file.modifiedMs, file.accessedMs);
  }
  if (sink !== undefined && batch.folded !== undefined) sink.absorb(batch.folded);
}
