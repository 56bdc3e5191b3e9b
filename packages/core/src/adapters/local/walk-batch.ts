import type { ScanAnalyticsSink, ScanProgress } from '../../ports/share-driver.js';

/** A directory a walk worker reached, as it hands it back with analytics on. */
export interface ListedDirectory {
  /** Share-relative, '/'-separated, '/' for the root. */
  path: string;
  /** Subdirectories the walk pushed from it (each reported later by an entry of its own). */
  subdirectories: number;
  /** Its regular files; each has four numbers in the batch's `facts`. */
  names: string[];
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
    for (const name of directory.names) {
      const link = facts[at + 3] as number;
      if (link < 0 || firstLink[link] === true) {
        sink.file(directory.path, name, facts[at] as number, facts[at + 1] as number, facts[at + 2] as number);
      }
      at += FACT_FIELDS;
    }
    sink.directory(directory.path, directory.subdirectories);
  }
}
