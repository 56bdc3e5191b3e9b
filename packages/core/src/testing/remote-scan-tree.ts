import { chmodSync, linkSync, mkdirSync, mkdtempSync, symlinkSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ScanAnalyticsSink } from '../ports/share-driver.js';
import type { RecordedDirectory, RecordedFile } from './recording-analytics-sink.js';

/**
 * A tree for the remote scans' analytics tests, with what a walk must report of it: deep
 * (below the ranked depth of 3), wide (several listing pages), unicode names, a sparse file
 * over 1 GiB, files with several hard links, symbolic links, an empty directory and an
 * unreadable one (mode 000, with a file and a subdirectory that must not be reported). Every
 * file gets its own whole-second modification and access times spread over the age buckets.
 * World-readable, so a server that acts as nobody reads all but the locked directory.
 */

const day = 86_400_000;

export interface ScanTreeFile extends RecordedFile {
  /** Other share-relative names of the same file (hard links). */
  links: string[];
}

export interface ScanTree {
  root: string;
  /** The scan's clock for the age histograms. */
  now: number;
  files: ScanTreeFile[];
  /** Every directory, the root '/' first, with its real subdirectories (symbolic links left out). */
  directories: RecordedDirectory[];
  locked: string;
  /** Symbolic links, share-relative, with where they point. */
  symlinks: { path: string; target: string }[];
}

export interface ScanTreeOptions {
  /** Files in /wide. */
  wide?: number;
  /** Also a symbolic link to a directory (a server that follows links would list it twice). */
  directoryLink?: boolean;
}

export function makeScanTree(options: ScanTreeOptions = {}): ScanTree {
  const root = mkdtempSync(join(tmpdir(), 'dms-scan-tree-'));
  chmodSync(root, 0o755);
  // Whole seconds: SMB listings tell times to the second.
  const now = Math.floor(Date.now() / 1000) * 1000;
  const files: ScanTreeFile[] = [];
  const children = new Map<string, number>([['/', 0]]);
  const directory = (path: string) => {
    if (children.has(path)) return;
    const parent = path.slice(0, path.lastIndexOf('/')) || '/';
    directory(parent);
    mkdirSync(join(root, path), { mode: 0o755 });
    children.set(parent, (children.get(parent) ?? 0) + 1);
    children.set(path, 0);
  };
  const file = (path: string, bytes: number, ageDays: number, links: string[] = []) => {
    directory(path.slice(0, path.lastIndexOf('/')) || '/');
    const full = join(root, path);
    writeFileSync(full, '');
    if (bytes > 0) truncateSync(full, bytes);
    const modifiedMs = now - ageDays * day;
    // Read some time after it was written, so the access histogram differs from the modification one.
    const accessedMs = now - Math.floor(ageDays / 2) * day;
    utimesSync(full, accessedMs / 1000, modifiedMs / 1000);
    for (const link of links) {
      directory(link.slice(0, link.lastIndexOf('/')) || '/');
      linkSync(full, join(root, link));
    }
    files.push({ path, bytes, modifiedMs, accessedMs, links });
  };

  file('/top.txt', 100, 1);
  file('/deep/l1/l2/l3/l4/deep.bin', 5000, 5 * 365);
  for (let i = 0; i < (options.wide ?? 300); i += 1) file(`/wide/w-${String(i).padStart(4, '0')}.dat`, (i * 37) % 3000, 45 + (i % 3));
  file('/ünïcödé-日本語/café-☕.txt', 7, 2 * 365);
  file('/ünïcödé-日本語/🙂', 4096, 200);
  file('/links/a.dat', 100_000, 100, ['/links/b.dat', '/other/c.dat']);
  file('/links/pair-1', 64, 10, ['/links/pair-2']);
  file('/other/plain.TXT', 10, 400);
  file('/big/huge.iso', 5 * 1024 ** 3, 700);
  directory('/empty-dir');
  const locked = '/locked';
  directory(locked);
  directory(`${locked}/sub`);
  writeFileSync(join(root, locked, 'secret.txt'), 'not counted');
  chmodSync(join(root, locked), 0o000);
  const symlinks = [
    { path: '/link-to-top', target: 'top.txt' },
    { path: '/dangling', target: 'nowhere' },
    ...(options.directoryLink ? [{ path: '/link-to-deep', target: 'deep' }] : []),
  ];
  for (const link of symlinks) symlinkSync(link.target, join(root, link.path));
  const directories = [...children].map(([path, subdirectories]) => ({ path, subdirectories: path === locked ? 0 : subdirectories }));
  // What is inside the locked directory is not reported.
  return { root, now, files, directories: directories.filter((d) => !d.path.startsWith(`${locked}/`)), locked, symlinks };
}

/** Feeds `sink` with `files` and `directories` as a walk would: each directory after its files, deepest first. */
export function replayTree(sink: ScanAnalyticsSink, files: readonly RecordedFile[], directories: readonly RecordedDirectory[]): void {
  const byDirectory = new Map<string, RecordedFile[]>();
  for (const file of files) {
    const slash = file.path.lastIndexOf('/');
    const directory = file.path.slice(0, slash) || '/';
    byDirectory.set(directory, [...(byDirectory.get(directory) ?? []), file]);
  }
  const depth = (path: string) => (path === '/' ? 0 : path.split('/').length - 1);
  for (const dir of [...directories].sort((a, b) => depth(b.path) - depth(a.path))) {
    for (const file of byDirectory.get(dir.path) ?? []) {
      sink.file(dir.path, file.path.slice(file.path.lastIndexOf('/') + 1), file.bytes, file.modifiedMs, file.accessedMs);
    }
    sink.directory(dir.path, dir.subdirectories);
  }
}

/** Sorted by path, without the recording's order: for comparing a walk's facts with a tree's. */
export function byPath<T extends { path: string }>(rows: readonly T[]): T[] {
  return [...rows].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** A sink that tells each call to both `a` and `b` (a recording and a builder). */
export function teeSink(a: ScanAnalyticsSink, b: ScanAnalyticsSink): ScanAnalyticsSink {
  return {
    file(directory, name, bytes, modifiedMs, accessedMs) {
      a.file(directory, name, bytes, modifiedMs, accessedMs);
      b.file(directory, name, bytes, modifiedMs, accessedMs);
    },
    directory(path, subdirectories) {
      a.directory(path, subdirectories);
      b.directory(path, subdirectories);
    },
  };
}
