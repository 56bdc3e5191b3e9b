import type { FoldingScanAnalyticsSink, ScanAnalyticsSink } from '../../ports/share-driver.js';

/**
 * A sink that takes a call per file, as a folding walk feeds it: the walk hands every file back
 * one by one (as it does a file with several links, so each is told once) and folds nothing,
 * its batches carrying only the directories listed, told here in the order walked. Slower than
 * folding (a call and a held `dev:ino` key per file on the main thread): for sinks that record
 * each file, as tests do; a scan job's ScanAnalyticsBuilder folds.
 */
export function fileByFileSink(sink: ScanAnalyticsSink): FoldingScanAnalyticsSink {
  return {
    foldPlan: { now: 0, ageBounds: [], sizeBounds: [], largestFiles: 0 },
    file: (directory, name, bytes, modifiedMs, accessedMs) => sink.file(directory, name, bytes, modifiedMs, accessedMs),
    directory: (path, subdirectories) => sink.directory(path, subdirectories),
    absorb(batch) {
      for (const folded of batch.directories) sink.directory(folded.path, folded.subdirectories);
    },
  };
}
