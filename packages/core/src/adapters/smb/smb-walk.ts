import { DriverError, type ScanAnalyticsSink, type ScanProgress, type ShareCapacity, type SkippedDirectories } from '../../ports/share-driver.js';
import { drainInParallel } from '../share-drivers/drain-in-parallel.js';
import { throttledProgress } from '../share-drivers/progress-throttle.js';
import { parseSmbBlocksLine } from './smb-capacity.js';
import { maxListingDepth, parseListingEntry } from './smb-listing.js';
import type { SmbclientSession } from './smbclient-session.js';
import { lostSessionStatuses, vanishedStatuses, type SmbFailure } from './smb-status.js';

/**
 * The walk of an SMB scan: directories listed one `ls` each by a few smbclient sessions at
 * once (a stack of directories to list, each session taking the next as its last listing is
 * answered), so a tree is listed in parallel however it is shaped. Directories are taken
 * depth first, so what waits to be listed stays near depth × directory width.
 *
 * What SMB shows through smbclient: names, sizes, the last write time to the second; no
 * access time, no file id or link count (each name of a hard-linked file counts as a file),
 * and symbolic links as the server resolves them (Samba follows those inside the share).
 *
 * A session the server drops is replaced, a few times in a walk: the listing it was given is
 * listed again when the server had shown none of it, and counted as it was when only the
 * free-space query after its entries failed. A drop in the middle of a listing fails the walk,
 * since what was shown of it is counted already.
 */

export interface SmbWalkOptions {
  /** smbclient sessions at most; one more is opened only while directories wait for one. */
  sessions: number;
  progressIntervalMs: number;
  /** Directories named in the result's `skipped` at most. */
  shownSkipped: number;
  /** Sessions the server dropped that are replaced, at most, in one walk; one more fails it. */
  replacedSessions: number;
}

export const defaultSmbWalkOptions: SmbWalkOptions = { sessions: 4, progressIntervalMs: 250, shownSkipped: 5, replacedSessions: 8 };

/** What a walk needs of a session (SmbclientSession). */
export type SmbListingSession = Pick<SmbclientSession, 'list' | 'close' | 'kill' | 'closed'>;

/** A session the server dropped during a listing: what smbclient said, and whether the listing was counted. */
interface LostSession {
  failure: string;
  counted: boolean;
}

export interface SmbWalkRun {
  signal: AbortSignal;
  onProgress(progress: ScanProgress): void;
  analytics?: ScanAnalyticsSink;
}

export interface SmbWalkResult {
  totals: ScanProgress;
  skipped: SkippedDirectories;
  capacity: ShareCapacity | undefined;
}

interface Pending {
  /** Share-relative, '/'-separated (the sink's form). */
  path: string;
  /** Relative to the session's start directory, '\'-separated (smbclient's form). */
  smb: string;
  depth: number;
}

/**
 * `open` starts a session; `classify` reads a line that is neither an entry nor a capacity
 * (smbclient's NT_STATUS failures), `other` gets what even that does not know.
 */
export async function walkSmb(
  open: () => SmbListingSession,
  classify: (line: string) => SmbFailure | undefined,
  other: (line: string) => void,
  run: SmbWalkRun,
  options: SmbWalkOptions,
): Promise<SmbWalkResult> {
  const totals: ScanProgress = { file_count: 0, file_size_sum: 0, directories: 0 };
  const skipped: SkippedDirectories = { count: 0, shown: [] };
  const sink = run.analytics;
  const stack: Pending[] = [{ path: '/', smb: '', depth: 0 }];
  const idle: SmbListingSession[] = [];
  const sessions: SmbListingSession[] = [];
  let replaced = 0;
  let capacity: ShareCapacity | undefined;
  const reportProgress = throttledProgress(options.progressIntervalMs, run.onProgress);

  /** Lists `dir` in `session`; says so when the server dropped the session. */
  const list = async (session: SmbListingSession, dir: Pending): Promise<LostSession | undefined> => {
    const state: {
      subdirectories: number;
      /** Entries counted so far (not '.' and '..'). */
      shown: number;
      unreadable: 'denied' | 'vanished' | undefined;
      lost: { failure: string; beforeEntries: boolean } | undefined;
    } = { subdirectories: 0, shown: 0, unreadable: undefined, lost: undefined };
    await session.list(dir.smb, (line) => {
      if (line.startsWith('  ')) {
        const entry = parseListingEntry(line);
        if (entry === undefined) throw new DriverError(`could not read smbclient's listing line '${line.trim()}'`);
        if (entry.name === '.' || entry.name === '..') return;
        state.shown += 1;
        if (entry.isDirectory) {
          if (dir.depth + 1 > maxListingDepth) {
            throw new DriverError(`directories nest deeper than ${maxListingDepth} levels under '${dir.path}' (a symbolic link loop on the server?)`);
          }
          state.subdirectories += 1;
          const smb = dir.smb === '' ? entry.name : `${dir.smb}\\${entry.name}`;
          stack.push({ path: dir.path === '/' ? `/${entry.name}` : `${dir.path}/${entry.name}`, smb, depth: dir.depth + 1 });
          return;
        }
        totals.file_count += 1;
        totals.file_size_sum += entry.size;
        sink?.file(dir.path, entry.name, entry.size, entry.modifiedMs, null);
        return;
      }
      const blocks = parseSmbBlocksLine(line);
      if (blocks !== undefined) {
        capacity = blocks;
        return;
      }
      const found = classify(line);
      if (found === undefined) return other(line);
      if (lostSessionStatuses.has(found.status) && (found.afterListing || (found.step === 'list' && state.shown === 0))) {
        return void (state.lost = { failure: found.message, beforeEntries: found.afterListing !== true });
      }
      // Below the share's directory, one removed while the walk runs or closed to the user is
      // skipped, as the NFS and local scans skip it; the share's directory itself fails the scan.
      if (found.step === 'list' && dir.depth > 0) {
        if (vanishedStatuses.has(found.status)) return void (state.unreadable = 'vanished');
        if (found.status === 'NT_STATUS_ACCESS_DENIED') return void (state.unreadable = 'denied');
      }
      if (found.step === 'list' && dir.depth === 0 && vanishedStatuses.has(found.status)) return; // an empty root lists as NO_SUCH_FILE on Windows
      throw new DriverError(found.message);
    });
    if (state.lost?.beforeEntries) return { failure: state.lost.failure, counted: false };
    if (state.unreadable === 'denied') {
      skipped.count += 1;
      if (skipped.shown.length < options.shownSkipped) skipped.shown.push(`'${dir.path.slice(1)}' (permission denied)`);
    }
    totals.directories += 1;
    sink?.directory(dir.path, state.unreadable === undefined ? state.subdirectories : 0);
    return state.lost && { failure: state.lost.failure, counted: true };
  };

  const work = async (dir: Pending) => {
    // An idle session, or a new one: in flight never exceeds the limit, so neither do live sessions.
    let session = idle.pop();
    if (session === undefined) {
      session = open();
      sessions.push(session);
    }
    const lost = await list(session, dir);
    if (lost === undefined) return void idle.push(session);
    session.kill();
    replaced += 1;
    if (replaced > options.replacedSessions) throw new DriverError(lost.failure);
    if (!lost.counted) stack.push(dir);
  };
  try {
    await drainInParallel({ pending: stack, limit: options.sessions, work, afterEach: () => reportProgress(totals), signal: run.signal });
  } catch (error) {
    for (const session of sessions) session.kill();
    // Settled once every smbclient has exited, so their private directory can go.
    await Promise.all(sessions.map((session) => session.closed));
    throw error;
  }
  for (const session of sessions) session.close();
  await Promise.all(sessions.map((session) => session.closed));
  return { totals, skipped, capacity };
}
