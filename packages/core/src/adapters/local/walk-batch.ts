import type { FoldedBatch, FoldingScanAnalyticsSink, ScanProgress } from '../../ports/share-driver.js';

/**
 * A file a folding walker hands back on its own, counted once across workers here: one with several
 * hard links, or any file when the sink is told file by file (see fileByFileSink).
 */
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
