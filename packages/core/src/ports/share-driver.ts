import type { NasType } from '../domain/common.js';
import type { StepOutcome } from '../domain/job.js';

/**
 * Share driver port: talks to real storage to test that a share can be reached with its
 * credentials and to walk it for file_count / file_size_sum. One adapter folder per
 * protocol family under src/adapters/. A driver never writes on the share.
 */
export type DriverStepName = 'resolve_host' | 'connect' | 'negotiate_protocol' | 'authenticate' | 'open_path' | 'list';

export interface ShareLocation {
  type: NasType;
  host: string;
  path: string;
  /** Parsed `options` of the share (`key` → true, `key=value` → value). */
  options: ReadonlyMap<string, string | true>;
  username: string | null;
  password: string | null;
}

/**
 * Where a run may connect (`share_test_allowed_hosts` as it is when the job runs). A driver
 * resolves a host once, asks with every address found, and connects only to one of them.
 */
export interface AllowedHosts {
  allows(host: string, addresses: readonly string[]): Promise<boolean>;
}

export interface DriverRun {
  signal: AbortSignal;
  /** Absent: anywhere (tests of a driver alone); jobs always set it. */
  allowedHosts?: AllowedHosts;
  /** Bound of every network step (DMS_DRIVER_TIMEOUT_MS, 10 s by default). */
  timeoutMs: number;
  /** Called once per step, in order, as each step ends. */
  onStep(step: StepOutcome & { name: DriverStepName }): void;
}

export interface ScanProgress {
  file_count: number;
  file_size_sum: number;
  directories: number;
}

export interface ScanRun extends DriverRun {
  onProgress(progress: ScanProgress): void;
  /** Absent: the scan keeps its totals only (no analytics asked for). */
  analytics?: ScanAnalyticsSink;
}

/**
 * What a walk tells of the tree for a scan's analytics (top directories, histograms, extensions,
 * largest files). Paths are share-relative, `/`-separated and start with `/` (the share's root is
 * `/`); never a host path. Calls come in any order a parallel walk produces, with one rule: a
 * directory's files are reported before its own `directory` call.
 */
export interface ScanAnalyticsSink {
  /** A regular file the scan counts (a file with several hard links: once). */
  file(directory: string, name: string, bytes: number, modifiedMs: number, accessedMs: number | null): void;
  /**
   * The walk has listed `path` (or could not: then `subdirectories` is 0) and will report each of
   * its `subdirectories` by a `directory` call of its own; the sink folds a subtree's totals
   * upward once all of them have come.
   */
  directory(path: string, subdirectories: number): void;
}

/**
 * How a walker that folds files in its own threads buckets and ranks them (see
 * FoldingScanAnalyticsSink): the sink's own rules, handed to the walker so both count alike.
 */
export interface ScanFoldPlan {
  /** The scan's clock, ms since the epoch: the age histograms' reference. */
  now: number;
  /** Lower bounds, in ms of age (now minus the file's time), of the age buckets after the first. */
  ageBounds: readonly number[];
  /** Upper bounds (exclusive), in bytes, of the size buckets before the last. */
  sizeBounds: readonly number[];
  /** How many largest files the scan keeps: a batch sends at most this many candidates. */
  largestFiles: number;
}

/** A directory a folding walker listed: its own regular files with one link (not its subtree's). */
export interface FoldedDirectory {
  /** Share-relative, '/'-separated, '/' for the root. */
  path: string;
  /** Subdirectories announced, each reported later by an entry of its own (0 when it could not be listed). */
  subdirectories: number;
  files: number;
  bytes: number;
}

/**
 * What a walker folded from one batch of directories. It covers the files with one link; a file
 * with several comes by `file` (once, however many workers met it), before its directory's entry.
 */
export interface FoldedBatch {
  /** In the order walked. */
  directories: FoldedDirectory[];
  /**
   * Six rows of one number per bucket, one after the other: files and bytes by modification age,
   * files and bytes by access age, files and bytes by size (each row as long as its buckets).
   */
  histograms: Float64Array;
  /** Some file's access time differed from its modification time. */
  accessDiffers: boolean;
  /**
   * Extensions as the names hold them (the text after the last '.', when a name has text before
   * it), optionally lower-cased; the sink applies the extension rules again. Files and bytes per
   * extension in `extensionTotals`, two numbers each.
   */
  extensions: string[];
  extensionTotals: Float64Array;
  /** The batch's largest files, at most `largestFiles`, by bytes then path (code point order). */
  largest: { path: string; bytes: number; modifiedMs: number }[];
}

/** A sink that takes a batch folded in the walker's threads instead of a call per file. */
export interface FoldingScanAnalyticsSink extends ScanAnalyticsSink {
  readonly foldPlan: ScanFoldPlan;
  absorb(batch: FoldedBatch): void;
}

/** Whether `sink` takes folded batches. */
export function takesFoldedBatches(sink: ScanAnalyticsSink): sink is FoldingScanAnalyticsSink {
  return 'absorb' in sink && 'foldPlan' in sink;
}

/**
 * The file system a share lies on, as its protocol reports it: its size, and the bytes the
 * share's user may still write (statfs `bavail`, NFS `abytes`/`space_avail`, SMB's caller
 * available units), not the root's reserve. A share on a shared file system reports all of it.
 */
export interface ShareCapacity {
  capacity_bytes: number;
  free_bytes: number;
}

/**
 * `message` says in plain words what succeeded ("opened 'x', 3 entries listed") or why it
 * failed; a passed test carries the share's capacity when the protocol told it.
 */
export type TestResult = { ok: true; message: string; capacity?: ShareCapacity } | { ok: false; message: string };

/** What a save-time check of a share's path found; `message` says why it is refused. */
export type PathCheck = { ok: true } | { ok: false; message: string };

/** Directories a scan could not read and went past (NFS: the server refused the listing). */
export interface SkippedDirectories {
  count: number;
  /** The first few, by path from the share's directory, each with why: "'locked' (permission denied)". */
  shown: string[];
}

export interface ScanResult {
  file_count: number;
  file_size_sum: number;
  /** Absent or count 0: nothing was skipped. */
  skipped?: SkippedDirectories;
  /** The share's capacity when the scan ended, when the protocol told it. */
  capacity?: ShareCapacity;
}

/** A failure a user can act on; `message` is plain words ("authentication failed for user 'x'"). */
export class DriverError extends Error {
  override readonly name = 'DriverError';
}

export interface ShareDriver {
  /** The steps `test` runs for this location, in order; their count is the job's total. */
  testSteps(location: ShareLocation): readonly DriverStepName[];
  /** Runs the steps; resolves with the first failure's message, never throws for a share problem. */
  test(location: ShareLocation, run: DriverRun): Promise<TestResult>;
  /** Counts every regular file reached by a path (as `find -type f`); throws DriverError. */
  scan(location: ShareLocation, run: ScanRun): Promise<ScanResult>;
  /**
   * Checks, when a share is saved or an unsaved one is tested, what can be known of its path
   * without reaching the share: a `local` path must lie inside the roots. Whether the directory
   * exists is left to `test` (a share may be saved before its directory is made). Drivers of
   * remote shares have nothing to check here and leave it out.
   */
  checkPath?(location: ShareLocation): Promise<PathCheck>;
}

export interface ShareDriverRegistry {
  forType(type: NasType): ShareDriver;
}
