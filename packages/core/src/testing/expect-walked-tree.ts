import { expect } from 'vitest';
import type { ScanResult } from '../ports/share-driver.js';
import { ScanAnalyticsBuilder } from '../scans/scan-analytics-builder.js';
import type { ScanAnalytics } from '../domain/scan-analytics.js';
import type { RecordedFile, RecordingAnalyticsSink } from './recording-analytics-sink.js';
import type { RecordingRun } from './recording-run.js';
import { replayTree, type ScanTree } from './remote-scan-tree.js';

/**
 * What every remote walk of the scan tree must have done, whatever its protocol: totals and the
 * one skipped (locked) directory in its result, the last progress equal to them, each file
 * reported before its directory, and the analytics it fed equal to those of the files it should
 * have seen. Returns the walked analytics for the protocol's own checks.
 */
export function expectWalkedTree(
  walk: { result: ScanResult; run: RecordingRun; sink: RecordingAnalyticsSink; walked: ScanAnalyticsBuilder },
  tree: ScanTree,
  expected: readonly RecordedFile[],
): ScanAnalytics {
  const { result, run, sink, walked } = walk;
  expect(result).toMatchObject({
    file_count: expected.length,
    file_size_sum: expected.reduce((sum, file) => sum + file.bytes, 0),
    skipped: { count: 1, shown: ["'locked' (permission denied)"] },
  });
  expect(run.progress.at(-1)).toMatchObject({ file_count: expected.length, directories: tree.directories.length });

  const listedAt = new Map(sink.directories.map((dir) => [dir.path, dir.order]));
  for (const file of sink.files) {
    const parent = file.path.slice(0, file.path.lastIndexOf('/')) || '/';
    expect(file.order, file.path).toBeLessThan(listedAt.get(parent) ?? -1);
  }

  const made = new ScanAnalyticsBuilder(tree.now);
  replayTree(made, expected, tree.directories);
  const analytics = walked.result();
  expect(analytics).toEqual(made.result());
  return analytics;
}
