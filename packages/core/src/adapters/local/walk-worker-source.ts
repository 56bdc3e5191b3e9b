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
 * `batchMs` (always at least one directory) and answers `{ files, bytes, dirs, pending }`,
 * handing unvisited directories back so idle workers can take them. It never follows
 * symlinks; a directory or file that vanished (ENOENT/ENOTDIR) is skipped, except the root.
 * Files with more than one hard link are not counted here but handed back as `links`
 * (`dev:ino`) with `linkBytes`, so the main thread counts each inode once across workers.
 * With `analytics`, the answer also carries what the sink is told: `listed`, one entry per
 * directory reached (share-relative path, subdirectories it pushed, its files' names, in the
 * order their directory's files come before it), and `facts`, four numbers per listed name
 * (bytes, mtime ms, atime ms, index in `links` or -1) in one Float64Array: one structured
 * clone per batch, not one message or object per file.
 *
 * With `pinned` (root is /proc/self/fd/N of a directory the main thread opened), a path
 * string is never trusted past the listing: each subdirectory is opened with O_NOFOLLOW, the
 * kernel's name of what was opened (readlink of its descriptor) must lie under the root's
 * current name, and its entries are listed and lstat'ed through that descriptor. A component
 * swapped for a symlink after it was listed is thus skipped, like a vanished one, and never
 * followed out of the share. Costs an open, two readlinks and a close per directory.
 */
export const walkWorkerSource = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const { readdirSync, lstatSync, statSync, openSync, closeSync, readlinkSync, constants } = require('node:fs');
const { root, pinned, batchMs, analytics } = workerData;
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
    if (under(real, readlinkSync(root, 'buffer'))) return { at: fdPath(fd), fd, real, dev: statSync(fdPath(fd)).dev };
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
function filesOf(opened, entries, shown) {
  const text = opened.real === undefined ? undefined : textOf(opened.real);
  if (text !== undefined) {
    const found = statFiles(entries, text.endsWith('/') ? text : text + '/', shown, opened.dev);
    if (found !== undefined && readlinkSync(opened.at, 'buffer').equals(opened.real)) return found;
  }
  return statFiles(entries, opened.at.endsWith('/') ? opened.at : opened.at + '/', shown, undefined);
}
// Share-relative name of a directory the walk reached ('/' for the root).
const rootEnd = root.endsWith('/') ? root.length - 1 : root.length;
const relative = (dir) => (dir === root ? '/' : dir.slice(rootEnd));
parentPort.on('message', ({ dirs: queued }) => {
  let files = 0, bytes = 0, dirs = 0;
  // Files with several hard links go to the main thread, which counts each inode once
  // across all workers: 'dev:ino' keys and their sizes.
  const links = [], linkBytes = [];
  // With analytics: per directory { path, subdirectories, names }, and per file of those
  // names four numbers in 'facts' (bytes, mtime ms, atime ms, index in 'links' or -1).
  const listed = analytics ? [] : undefined;
  const facts = analytics ? [] : undefined;
  const stack = queued.slice();
  const until = performance.now() + batchMs;
  let current;
  try {
    do {
      const dir = stack.pop();
      current = dir;
      let opened, entries;
      try {
        opened = enter(dir);
        if (opened === undefined) {
          if (listed) listed.push({ path: relative(dir), subdirectories: 0, names: [] });
          continue;
        }
        entries = readdirSync(opened.at, { withFileTypes: true });
      } catch (e) {
        if (opened !== undefined && opened.fd >= 0) closeSync(opened.fd);
        // Vanished or unreadable, it is still reported, with nothing below it.
        if (listed) listed.push({ path: relative(dir), subdirectories: 0, names: [] });
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
        const names = listed ? [] : undefined;
        for (let i = 0; i < found.length; i += 2) {
          const st = found[i + 1];
          let link = -1;
          if (st.nlink > 1) {
            link = links.length;
            links.push(st.dev + ':' + st.ino);
            linkBytes.push(st.size);
          } else {
            files++;
            bytes += st.size;
          }
          if (names) {
            names.push(found[i]);
            facts.push(st.size, st.mtimeMs, st.atimeMs, link);
          }
        }
        if (listed) listed.push({ path: relative(dir), subdirectories, names });
      } finally {
        if (opened.fd >= 0) closeSync(opened.fd);
      }
    } while (stack.length > 0 && performance.now() < until);
    parentPort.postMessage({ files, bytes, dirs, pending: stack, links, linkBytes, listed, facts: facts && Float64Array.from(facts) });
  } catch (e) {
    const error = { code: e.code, path: e.path ?? current, message: e.message };
    parentPort.postMessage({ files, bytes, dirs, pending: [], links, linkBytes, listed, facts: facts && Float64Array.from(facts), error });
  }
});
`;
