import { DriverError, type ScanAnalyticsSink, type ScanProgress, type ScanResult, type SkippedDirectories } from '../../ports/share-driver.js';
import { drainInParallel } from '../share-drivers/drain-in-parallel.js';
import { throttledProgress } from '../share-drivers/progress-throttle.js';
import type { DirPage, ListedFile, Looked, PageOutcome, SubDirectory } from './nfs-readdir.js';

/**
 * The walk of an NFS scan, apart from the protocol: it asks a DirReader for one page of one
 * directory at a time, several directories at once (the calls share one connection, told
 * apart by their xids), and counts regular files: a file with several hard links once, by its
 * file id, as the local scan counts an inode once. Symbolic links are listed, never followed; a directory whose file id is one of its ancestors' is a loop
 * and is skipped. Directories are entered depth first, so what is held (handles waiting to be
 * listed) stays near depth × page size, however wide the export.
 */

/** How a listing failed, in the walk's terms. */
export type Failure = 'denied' | 'gone' | 'changed' | 'other';

export interface DirReader {
  readPage(dir: Buffer, cookie: Buffer, verifier: Buffer): Promise<PageOutcome>;
  /** What a name is, for entries a page listed without attributes (v3); absent where pages always carry them. */
  lookup?(dir: Buffer, name: Buffer): Promise<Looked>;
  classify(status: number): Failure;
  /** "NFS3 error 5" or "NFS4 error 10008", for a failure the walk does not know. */
  describe(status: number): string;
}

export interface WalkOptions {
  signal: AbortSignal;
  onProgress(progress: ScanProgress): void;
  /** Told of every file counted and every directory listed (or not: then with 0 subdirectories). */
  analytics?: ScanAnalyticsSink;
  /** Listing calls in flight at once. */
  concurrency: number;
  progressIntervalMs: number;
  maxDepth: number;
  /** Entries of one directory beyond which it is taken for a server listing without end. */
  maxDirectoryEntries: number;
  /** Directories named in the result's `skipped` at most. */
  shownSkipped: number;
}

export const defaultWalkOptions = {
  concurrency: 8,
  progressIntervalMs: 250,
  // As the SMB scan's bound: deeper is taken for a loop the file ids did not reveal.
  maxDepth: 256,
  maxDirectoryEntries: 10_000_000,
  shownSkipped: 5,
} as const;

interface Directory {
  fh: Buffer;
  fileid: bigint;
  name: Buffer;
  parent: Directory | undefined;
  depth: number;
  /** Share-relative, for the analytics sink ('' when the scan keeps none). */
  path: string;
  /** Subdirectories entered from this one so far (loops left out). */
  subdirectories: number;
  cookie: Buffer;
  verifier: Buffer;
  entries: number;
  /** Brent's cycle detection over the cookie chain: a cookie seen again means the listing loops. */
  tortoise: Buffer;
  power: number;
  steps: number;
}

/** Longest path a message shows; deeper ones keep their end, where the name is. */
const shownPathChars = 200;

/** A path from the share's directory, for messages: control characters shown as '?', long ones cut. */
function pathOf(dir: Directory | undefined, name?: Buffer): string {
  const parts: string[] = name === undefined ? [] : [name.toString('utf8')];
  for (let at = dir; at?.parent !== undefined; at = at.parent) parts.push(at.name.toString('utf8'));
  const path =
    parts.length === 0
      ? '.'
      : parts
          .reverse()
          .join('/')
          .replace(/[\u0000-\u001f\u007f]/g, '?');
  return path.length > shownPathChars ? `…${path.slice(-shownPathChars)}` : path;
}

function directory(sub: SubDirectory, parent: Directory | undefined, withPath: boolean): Directory {
  const zero = Buffer.alloc(8);
  let path = '';
  if (parent === undefined) path = '/';
  else if (withPath) path = `${parent.path === '/' ? '' : parent.path}/${sub.name.toString('utf8')}`;
  return {
    ...sub,
    parent,
    depth: parent === undefined ? 0 : parent.depth + 1,
    path,
    subdirectories: 0,
    cookie: zero,
    verifier: zero,
    entries: 0,
    tortoise: zero,
    power: 1,
    steps: 0,
  };
}

export async function walkNfs(reader: DirReader, root: SubDirectory, options: WalkOptions): Promise<ScanResult & { skipped: SkippedDirectories }> {
  const totals: ScanProgress = { file_count: 0, file_size_sum: 0, directories: 0 };
  const skipped: SkippedDirectories = { count: 0, shown: [] };
  const skip = (path: string, why: string) => {
    skipped.count += 1;
    if (skipped.shown.length < options.shownSkipped) skipped.shown.push(`'${path}' (${why})`);
  };
  const sink = options.analytics;
  const stack: Directory[] = [directory(root, undefined, sink !== undefined)];
  const reportProgress = throttledProgress(options.progressIntervalMs, options.onProgress);
  // File ids of files with several links already counted. Only such files are kept, as the
  // local scan keeps their inodes: one entry per linked file, whatever its number of names.
  const linkedSeen = new Set<bigint>();

  const count = (dir: Directory, file: ListedFile) => {
    if (file.links > 1) {
      if (linkedSeen.has(file.fileid)) return;
      linkedSeen.add(file.fileid);
    }
    totals.file_count += 1;
    totals.file_size_sum += file.bytes;
    sink?.file(dir.path, file.name.toString('utf8'), file.bytes, file.modifiedMs, file.accessedMs);
  };
  const listed = (dir: Directory) => {
    totals.directories += 1;
    sink?.directory(dir.path, dir.subdirectories);
  };

  const enter = (sub: SubDirectory, parent: Directory) => {
    for (let at: Directory | undefined = parent; at !== undefined; at = at.parent) {
      if (at.fileid === sub.fileid) return skip(pathOf(parent, sub.name), `a loop back to '${pathOf(at)}'`);
    }
    if (parent.depth + 1 > options.maxDepth) {
      throw new DriverError(`directories nest deeper than ${options.maxDepth} levels at '${pathOf(parent, sub.name)}' (a loop on the server?)`);
    }
    parent.subdirectories += 1;
    stack.push(directory(sub, parent, sink !== undefined));
  };

  const resolve = async (dir: Directory, names: readonly Buffer[]) => {
    for (const name of names) {
      const looked = reader.lookup === undefined ? { status: -1 } : await reader.lookup(dir.fh, name);
      if (looked.status !== 0 || !('kind' in looked)) {
        if (reader.classify(looked.status) === 'gone') continue;
        skip(pathOf(dir, name), 'no attributes');
      } else if (looked.kind === 'file') count(dir, looked.file);
      else if (looked.kind === 'dir') enter(looked.dir, dir);
    }
  };

  const take = async (dir: Directory, page: DirPage) => {
    totals.file_count += page.files;
    totals.file_size_sum += page.bytes;
    if (sink !== undefined) for (const file of page.listed) sink.file(dir.path, file.name.toString('utf8'), file.bytes, file.modifiedMs, file.accessedMs);
    for (const file of page.linked) count(dir, file);
    dir.entries += page.entries;
    if (dir.entries > options.maxDirectoryEntries) {
      throw new DriverError(`directory '${pathOf(dir)}' lists more than ${options.maxDirectoryEntries} entries (a listing without end?)`);
    }
    for (const name of page.unreadable) skip(pathOf(dir, name), 'unreadable');
    // Names the page left without attributes are looked up before the next page is asked for,
    // so the directory's last page cannot end it while files of this one are still coming.
    if (page.unresolved.length > 0) await resolve(dir, page.unresolved);
    if (!page.eof) {
      if (page.cookie.equals(dir.tortoise)) throw new DriverError(`listing directory '${pathOf(dir)}' loops (the server answered a cookie again)`);
      dir.steps += 1;
      if (dir.steps === dir.power) {
        dir.tortoise = page.cookie;
        dir.power *= 2;
        dir.steps = 0;
      }
      dir.cookie = page.cookie;
      dir.verifier = page.verifier;
      // Pushed back below its subdirectories: they are entered first, depth first.
      stack.push(dir);
    }
    for (const sub of page.dirs) enter(sub, dir);
    if (page.eof) listed(dir);
  };

  const list = async (dir: Directory) => {
    const outcome = await reader.readPage(dir.fh, dir.cookie, dir.verifier);
    if ('page' in outcome) return take(dir, outcome.page);
    const failure = reader.classify(outcome.status);
    const path = pathOf(dir);
    switch (failure) {
      case 'denied':
        listed(dir);
        return skip(path, 'permission denied');
      case 'gone':
        if (dir.parent === undefined) throw new DriverError(`the share's directory went away during the scan (${reader.describe(outcome.status)})`);
        // Removed while the walk ran: skipped, as the local scan skips it, unless the share's
        // directory went with it (checked when the walk is over). Told with nothing in it.
        sink?.directory(dir.path, 0);
        return void rootCheck.add(path);
      case 'changed':
        throw new DriverError(`directory '${path}' changed while it was listed and could not be read on (${reader.describe(outcome.status)})`);
      default:
        throw new DriverError(`listing directory '${path}' failed (${reader.describe(outcome.status)})`);
    }
  };
  const rootCheck = new Set<string>();

  await drainInParallel({
    pending: stack,
    limit: options.concurrency,
    work: list,
    afterEach: () => reportProgress(totals),
    signal: options.signal,
  });

  if (rootCheck.size > 0) {
    // A subdirectory that vanished is skipped; the share's own directory gone fails the scan.
    const outcome = await reader.readPage(root.fh, Buffer.alloc(8), Buffer.alloc(8));
    if (!('page' in outcome) && reader.classify(outcome.status) === 'gone') {
      throw new DriverError(`the share's directory went away during the scan (${reader.describe(outcome.status)})`);
    }
  }
  return { file_count: totals.file_count, file_size_sum: totals.file_size_sum, skipped };
}
