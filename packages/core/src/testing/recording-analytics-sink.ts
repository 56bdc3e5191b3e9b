import type { ScanAnalyticsSink } from '../ports/share-driver.js';

export interface RecordedFile {
  path: string;
  bytes: number;
  modifiedMs: number;
  accessedMs: number | null;
}

export interface RecordedDirectory {
  path: string;
  subdirectories: number;
}

/** The calls a scan made on its analytics sink, each with its place in the order of all calls. */
export interface RecordingAnalyticsSink extends ScanAnalyticsSink {
  files: (RecordedFile & { order: number })[];
  directories: (RecordedDirectory & { order: number })[];
}

/** A ScanAnalyticsSink that keeps every call, for tests of the drivers that feed it. */
export function recordingAnalyticsSink(): RecordingAnalyticsSink {
  let order = 0;
  const files: RecordingAnalyticsSink['files'] = [];
  const directories: RecordingAnalyticsSink['directories'] = [];
  return {
    files,
    directories,
    file(directory, name, bytes, modifiedMs, accessedMs) {
      files.push({ path: directory === '/' ? `/${name}` : `${directory}/${name}`, bytes, modifiedMs, accessedMs, order: order++ });
    },
    directory(path, subdirectories) {
      directories.push({ path, subdirectories, order: order++ });
    },
  };
}
