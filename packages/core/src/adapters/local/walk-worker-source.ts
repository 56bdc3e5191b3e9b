import { codePointBefore } from '../../scans/code-point-order.js';

/**
 * Body of a walk worker, kept as plain JavaScript so `new Worker(src, { eval: true })` runs
 * the same from TypeScript sources (vitest), the built dist and Electron, with no loader.
 *
 * Why a worker with synchronous calls: measured on 200,000 files, promise-based readdir +
 * lstat through libuv's pool ran ~9x slower than `du -sb` (a thread hop and a promise per
 * file), while lstatSync in a loop is ~2x; two such loops in parallel threads stay well under
 * the 2x bar and leave the main event loop free.
 *
 * Protocol: the main thread posts `{ dirs }`; the worker walks depth-first for about
 * `batchMs` (always at least one directory) and answers a FoldedWalkBatch (walk-batch.ts)
 * with `pending`, the unvisited directories it hands back so idle workers can take them. It
 * never follows symlinks; a directory or file that vanished (ENOENT/ENOTDIR) is skipped,
 * except the root. Files with more than one hard link are not counted here but handed back
 * one by one in `linked` (`dev:ino` key, bytes, times), so the main thread counts each inode
 * once across workers.
 *
 * With `plan` (the analytics sink's ScanFoldPlan), the worker also folds the batch's files
 * with one link itself, so the main thread does nothing per file (decision 192): `folded`
 * holds each directory reached with its own files and bytes (share-relative path, the
 * subdirectories it pushed; a vanished or unreadable one with none), the six histogram rows
 * bucketed by the plan's bounds, files and bytes per extension, and the batch's largest files
 * (at most `plan.largestFiles`, by bytes then code point order, a path built only for a file
 * that makes the list). A batch is cloned as one object per directory, a few typed arrays and
 * at most a few dozen candidates, whatever its files. With `fileByFile` (a sink that does not
 * fold), every file is handed back in `linked`, and `folded` carries only the directories.
 *
 * With `pinned` (root is /proc/self/fd/N of a directory the main thread opened), a path
 * string is never trusted past the listing: each subdirectory is opened with O_NOFOLLOW, the
 * kernel's name of what was opened (readlink of its descriptor) must lie under the root's
 * current name, and its entries are listed through that descriptor. A component swapped for a
 * symlink after it was listed is thus skipped, like a vanished one, and never followed out of
 * the share. Its files are looked up under that kernel name, kept only if it still names the
 * descriptor's directory afterwards, else through the descriptor (see filesOf). Costs an open,
 * an fstat, two or three readlinks and a close per directory.
 */
export const walkWorkerSource = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const { readdirSync, lstatSync, statSync, fstatSync, openSync, closeSync, readlinkSync, constants } = require('node:fs');
const { root, pinned, batchMs, plan, fileByFile } = workerData;
const ENTER = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
const vanished = (e) => e && (e.code === 'ENOENT' || e.code === 'ENOTDIR');
const fdPath = (fd) => '/proc/self/fd/' + fd;
// Compared as bytes, so no name is altered by decoding.
const under = (opened, top) =>
  opened.length > top.length &&
  (top.length === 1 || opened[top.length] === 0x2f) &&
  opened.subarray(0, top.length).equals(top);
// The kernel's name of an opened directory as a string, when it is one exactly (valid UTF-8).
function textOf(name) {
  const text = name.toString();
  return Buffer.byteLength(text) === name.length && Buffer.from(text).equals(name) ? text : undefined;
}
// Where to list dir from: the root as given; a subdirectory through a checked descriptor,
// or undefined when it is no longer a directory under the root. Pinned, 'real' is the
// kernel's name of what was opened (checked under the root's), 'dev' its device.
function enter(dir) {
  if (!pinned) return { at: dir, fd: -1 };
  if (dir === root) return { at: root, fd: -1, real: readlinkSync(root, 'buffer'), dev: statSync(root).dev };
  let fd;
  try {
    fd = openSync(dir, ENTER);
  } catch (e) {
    // ELOOP: a symlink now stands where the directory was.
    if (vanished(e) || e.code === 'ELOOP') return undefined;
    throw e;
  }
  try {
    const real = readlinkSync(fdPath(fd), 'buffer');
    if (under(real, readlinkSync(root, 'buffer'))) return { at: fdPath(fd), fd, real, dev: fstatSync(fd).dev };
  } catch (e) {
    closeSync(fd);
    throw e;
  }
  closeSync(fd);
  return undefined;
}
// Regular files among 'entries' with their stats, looked up under 'base': [name, stats, ...].
// A file that vanished since the listing is left out. With 'dev', a failed lookup or a file on
// another device makes it answer undefined (the caller looks the files up again, safely).
function statFiles(entries, base, shown, dev) {
  const found = [];
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    let st;
    try {
      st = lstatSync(base + entry.name, { throwIfNoEntry: false });
    } catch (e) {
      if (vanished(e)) continue;
      if (dev !== undefined) return undefined;
      throw Object.assign(e, { path: shown + entry.name });
    }
    if (dev !== undefined && st !== undefined && st.dev !== dev) return undefined;
    // Re-checked: the entry may have been replaced since readdir.
    if (st !== undefined && st.isFile()) found.push(entry.name, st);
  }
  return found;
}
// Files of an opened directory with their stats. Through the descriptor's /proc name every
// lookup is pinned but costs twice the CPU of a plain path (procfs resolves the magic link
// each time), so files are first looked up under the kernel's name of the directory, and
// those answers kept only if that name still leads to the directory afterwards (the
// descriptor's name unchanged, every file on its device); else they are looked up again
// through the descriptor.
// Below FAST_FROM files the re-check's readlink costs more than the lookups it saves.
const FAST_FROM = 4;
function filesOf(opened, entries, shown) {
  let regular = 0;
  for (const entry of entries) if (entry.isFile()) regular++;
  if (regular === 0) return [];
  const text = opened.real === undefined || regular < FAST_FROM ? undefined : textOf(opened.real);
  if (text !== undefined) {
    const found = statFiles(entries, text.endsWith('/') ? text : text + '/', shown, opened.dev);
    if (found !== undefined && readlinkSync(opened.at, 'buffer').equals(opened.real)) return found;
  }
  return statFiles(entries, opened.at.endsWith('/') ? opened.at : opened.at + '/', shown, undefined);
}
// Share-relative name of a directory the walk reached ('/' for the root).
const rootEnd = root.endsWith('/') ? root.length - 1 : root.length;
const relative = (dir) => (dir === root ? '/' : dir.slice(rootEnd));
// A worker run from a string imports nothing: the ranking's order is written into it from its one source.
${codePointBefore.toString()}
function bucketOf(value, bounds) {
  let index = 0;
  while (index < bounds.length && value >= bounds[index]) index++;
  return index;
}
// One batch's files with one link, folded by the sink's plan (see FoldedBatch in ports/share-driver.ts).
const ages = plan ? plan.ageBounds.length + 1 : 0;
const sizes = plan ? plan.sizeBounds.length + 1 : 0;
class Fold {
  constructor() {
    this.directories = [];
    // Files and bytes by modification age, by access age, by size: six rows, one after the other.
    this.histograms = new Float64Array(4 * ages + 2 * sizes);
    this.accessDiffers = false;
    this.extensions = new Map();
    // Best first: bytes descending, then path in code point order; at most plan.largestFiles.
    this.largest = [];
  }
  file(directory, name, bytes, modifiedMs, accessedMs) {
    const rows = this.histograms;
    const modified = bucketOf(plan.now - modifiedMs, plan.ageBounds);
    rows[modified] += 1;
    rows[ages + modified] += bytes;
    const accessed = bucketOf(plan.now - accessedMs, plan.ageBounds);
    rows[2 * ages + accessed] += 1;
    rows[3 * ages + accessed] += bytes;
    if (accessedMs !== modifiedMs) this.accessDiffers = true;
    const size = bucketOf(bytes, plan.sizeBounds);
    rows[4 * ages + size] += 1;
    rows[4 * ages + sizes + size] += bytes;
    // The text after the last dot, when there is text before it; the sink applies its rules.
    const dot = name.lastIndexOf('.');
    const extension = dot > 0 ? name.slice(dot + 1) : '';
    const totals = this.extensions.get(extension);
    if (totals === undefined) this.extensions.set(extension, { files: 1, bytes });
    else {
      totals.files += 1;
      totals.bytes += bytes;
    }
    this.offerLargest(directory, name, bytes, modifiedMs);
  }
  offerLargest(directory, name, bytes, modifiedMs) {
    const limit = plan.largestFiles;
    const largest = this.largest;
    const full = largest.length >= limit;
    // Most files are smaller than the worst kept: turned away before a path is built.
    if (full && (limit <= 0 || bytes < largest[limit - 1].bytes)) return;
    const path = directory === '/' ? '/' + name : directory + '/' + name;
    const ranksBefore = (kept) => bytes > kept.bytes || (bytes === kept.bytes && codePointBefore(path, kept.path));
    if (full && !ranksBefore(largest[limit - 1])) return;
    let at = largest.length;
    while (at > 0 && ranksBefore(largest[at - 1])) at--;
    largest.splice(at, 0, { path, bytes, modifiedMs });
    if (largest.length > limit) largest.pop();
  }
  batch() {
    const extensions = [...this.extensions.keys()];
    const extensionTotals = new Float64Array(2 * extensions.length);
    extensions.forEach((extension, index) => {
      const totals = this.extensions.get(extension);
      extensionTotals[2 * index] = totals.files;
      extensionTotals[2 * index + 1] = totals.bytes;
    });
    const { directories, histograms, accessDiffers, largest } = this;
    return { directories, histograms, accessDiffers, extensions, extensionTotals, largest };
  }
}
parentPort.on('message', ({ dirs: queued }) => {
  let files = 0, bytes = 0, dirs = 0;
  // Files with several hard links (every file, 'fileByFile') go to the main thread, which counts
  // each inode once across all workers by its 'dev:ino' key.
  const linked = [];
  const fold = plan ? new Fold() : undefined;
  const stack = queued.slice();
  const until = performance.now() + batchMs;
  let current;
  const answer = (error) => {
    const batch = { files, bytes, dirs, pending: error ? [] : stack, linked };
    if (fold) batch.folded = fold.batch();
    if (error) batch.error = error;
    parentPort.postMessage(batch);
  };
  try {
    do {
      const dir = stack.pop();
      current = dir;
      let opened, entries;
      try {
        opened = enter(dir);
        if (opened === undefined) {
          if (fold) fold.directories.push({ path: relative(dir), subdirectories: 0, files: 0, bytes: 0 });
          continue;
        }
        entries = readdirSync(opened.at, { withFileTypes: true });
      } catch (e) {
        if (opened !== undefined && opened.fd >= 0) closeSync(opened.fd);
        // Vanished or unreadable, it is still reported, with nothing below it.
        if (fold) fold.directories.push({ path: relative(dir), subdirectories: 0, files: 0, bytes: 0 });
        if (vanished(e) && dir !== root) continue;
        throw Object.assign(e, { path: dir });
      }
      try {
        dirs++;
        const prefix = dir.endsWith('/') ? dir : dir + '/';
        let subdirectories = 0;
        for (const entry of entries) {
          if (entry.isDirectory()) {
            stack.push(prefix + entry.name);
            subdirectories++;
          }
        }
        const found = filesOf(opened, entries, prefix);
        const shown = fold ? relative(dir) : '';
        let ownFiles = 0, ownBytes = 0;
        for (let i = 0; i < found.length; i += 2) {
          const st = found[i + 1];
          if (fileByFile || st.nlink > 1) {
            const name = fold ? found[i] : '';
            linked.push({ key: st.dev + ':' + st.ino, bytes: st.size, directory: shown, name, modifiedMs: st.mtimeMs, accessedMs: st.atimeMs });
            continue;
          }
          ownFiles++;
          ownBytes += st.size;
          if (fold) fold.file(shown, found[i], st.size, st.mtimeMs, st.atimeMs);
        }
        files += ownFiles;
        bytes += ownBytes;
        if (fold) fold.directories.push({ path: shown, subdirectories, files: ownFiles, bytes: ownBytes });
      } finally {
        if (opened.fd >= 0) closeSync(opened.fd);
      }
    } while (stack.length > 0 && performance.now() < until);
    answer(undefined);
  } catch (e) {
    answer({ code: e.code, path: e.path ?? current, message: e.message });
  }
});
`;
