import { lstat, readlink, realpath, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { dirname, isAbsolute, join, parse, resolve, sep } from 'node:path';
import { DriverError, type PathCheck } from '../../ports/share-driver.js';
import { withHostPath } from '../../domain/host-path-note.js';

/** Symlinks followed while resolving one share path, as Linux's own limit (MAXSYMLINKS). */
const MAX_SYMLINK_HOPS = 40;

export function isInside(child: string, parent: string): boolean {
  if (child === parent) return true;
  return child.startsWith(parent.endsWith(sep) ? parent : parent + sep);
}

export function localFsMessage(error: unknown, shown: string): string {
  switch ((error as NodeJS.ErrnoException).code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return `path '${shown}' not found on share`;
    case 'EACCES':
    case 'EPERM':
      return `permission denied on path '${shown}'`;
    case 'ELOOP':
      return `path '${shown}' contains a symbolic link loop`;
    default:
      return `cannot open path '${shown}': ${(error as Error).message}`;
  }
}

/** A configured root as written and as it really is; `real` is undefined while it does not exist. */
export interface ConfiningRoot {
  configured: string;
  real: string | undefined;
}

export async function realRoots(roots: readonly string[]): Promise<ConfiningRoot[]> {
  return Promise.all(
    roots.map(async (root) => {
      const configured = resolve(root);
      // A root that does not exist (yet) confines nothing; it must not fail other roots.
      const real = await realpath(configured).catch(() => undefined);
      return { configured, real };
    }),
  );
}

export function isInsideRealRoot(path: string, roots: readonly ConfiningRoot[]): boolean {
  return roots.some((root) => root.real !== undefined && isInside(path, root.real));
}

/** Splits without normalising: a `..` must stay visible so it can be checked, not folded away. */
function pathParts(path: string): { anchor: string; parts: string[] } {
  const anchor = parse(path).root;
  const parts = path
    .slice(anchor.length)
    .split(sep === '\\' ? /[\\/]/ : '/')
    .filter((part) => part !== '' && part !== '.');
  return { anchor, parts };
}

/**
 * The real root an absolute path starts in (by whole components, as configured or as real)
 * and the components left below it; undefined when it starts in none: outside.
 */
function anchorInRoots(path: string, roots: readonly ConfiningRoot[]): { root: ConfiningRoot; rest: string[] } | undefined {
  const target = pathParts(path);
  for (const root of roots) {
    for (const base of [root.configured, root.real]) {
      if (base === undefined) continue;
      const { anchor, parts } = pathParts(base);
      if (anchor !== target.anchor || parts.some((part, i) => target.parts[i] !== part)) continue;
      return { root, rest: target.parts.slice(parts.length) };
    }
  }
  return undefined;
}

/**
 * Where a walk of a share path ended: outside the roots, at a component it could not read
 * (missing, not a directory, no permission, a loop: `error` says which), or at a directory
 * inside the roots (`dir`, every symlink followed).
 */
type WalkEnd = { kind: 'outside' } | { kind: 'unreadable'; error: unknown } | { kind: 'reached'; dir: string };

const errno = (code: string, message: string) => Object.assign(new Error(message), { code });

/**
 * Resolves `start` one component at a time (lstat each; a symlink's target is checked against
 * the real roots before anything under it is touched), so nothing outside the roots is ever
 * stat'ed. A file system error ends the walk, it is never thrown.
 */
async function walkInsideRoots(start: { root: ConfiningRoot; rest: string[] }, known: readonly ConfiningRoot[]): Promise<WalkEnd> {
  if (start.root.real === undefined) return { kind: 'unreadable', error: errno('ENOENT', 'root missing') };
  let dir = start.root.real;
  const pending = [...start.rest];
  let hops = 0;
  while (pending.length > 0) {
    const part = pending.shift() as string;
    if (part === '..') {
      // `dir` has no symlinks in it, so its parent is what `..` really means.
      dir = dirname(dir);
      if (!isInsideRealRoot(dir, known)) return { kind: 'outside' };
      continue;
    }
    const next = join(dir, part);
    let info: Stats;
    try {
      info = await lstat(next);
    } catch (error) {
      return { kind: 'unreadable', error };
    }
    if (info.isSymbolicLink()) {
      hops += 1;
      if (hops > MAX_SYMLINK_HOPS) return { kind: 'unreadable', error: errno('ELOOP', 'loop') };
      let target: string;
      try {
        target = await readlink(next);
      } catch (error) {
        return { kind: 'unreadable', error };
      }
      if (isAbsolute(target)) {
        const anchored = anchorInRoots(target, known);
        if (anchored?.root.real === undefined) return { kind: 'outside' };
        dir = anchored.root.real;
        pending.unshift(...anchored.rest);
      } else {
        // Relative to the directory holding the link, which `dir` is.
        pending.unshift(...pathParts(target).parts);
      }
      continue;
    }
    if (pending.length > 0 && !info.isDirectory()) return { kind: 'unreadable', error: errno('ENOTDIR', 'not a directory') };
    dir = next;
  }
  return isInsideRealRoot(dir, known) ? { kind: 'reached', dir } : { kind: 'outside' };
}

/** Where a share path starts: relative paths in the first root, absolute ones as they are. */
function startOf(firstRoot: string, sharePath: string): string {
  return isAbsolute(sharePath) ? resolve(sharePath) : resolve(firstRoot, sharePath);
}

const noRoots = 'local shares are disabled on this server: no local roots are configured';

/**
 * Maps a local share's `path` to a real directory inside the configured roots: relative paths
 * live in the first root, absolute ones must lie in one of them, `..` is refused outright.
 *
 * The path is resolved one component at a time (see walkInsideRoots), so nothing outside the
 * roots is ever stat'ed: a path that leads out gets one answer whether or not its target
 * exists, and cannot be used to learn which paths exist outside the roots.
 */
export async function resolveConfinedPath(roots: readonly string[], sharePath: string): Promise<string> {
  const shown = sharePath;
  const first = roots[0];
  if (first === undefined) throw new DriverError(noRoots);
  if (sharePath.split('/').includes('..')) throw new DriverError(`path '${shown}' must not contain '..'`);
  const outside = () => new DriverError(`path '${shown}' is outside the allowed roots`);
  const known = await realRoots(roots);
  const start = anchorInRoots(startOf(first, sharePath), known);
  if (start === undefined) throw outside();
  const end = await walkInsideRoots(start, known);
  if (end.kind === 'outside') throw outside();
  // Which directory on this server was looked for, for an admin (messageFor keeps it from others).
  const checked = startOf(first, sharePath);
  if (end.kind === 'unreadable') throw new DriverError(withHostPath(localFsMessage(end.error, shown), checked));
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(end.dir)).isDirectory();
  } catch (error) {
    throw new DriverError(withHostPath(localFsMessage(error, shown), checked));
  }
  if (!isDirectory) throw new DriverError(withHostPath(`path '${shown}' is not a directory`, checked));
  return end.dir;
}

/**
 * The save-time rule for a local share's `path`: it must lead inside the roots, lexically and
 * through the symlinks that already exist, walked as resolveConfinedPath walks them (nothing
 * outside the roots is stat'ed). A part that does not exist yet ends the check with the path
 * accepted: nothing below it can lead out, and a share may be saved before its directory is
 * made. A part that cannot be read is accepted too: the driver checks again, fully, whenever
 * it opens the path. Messages show the path as resolved (a relative one in the first root)
 * and name the roots.
 */
export async function checkConfinedPath(roots: readonly string[], sharePath: string): Promise<PathCheck> {
  const first = roots[0];
  if (first === undefined) return { ok: false, message: noRoots };
  const shown = startOf(first, sharePath);
  if (sharePath.split('/').includes('..')) return { ok: false, message: `path '${sharePath}' must not contain '..'` };
  const known = await realRoots(roots);
  const start = anchorInRoots(shown, known);
  const end = start === undefined ? { kind: 'outside' as const } : await walkInsideRoots(start, known);
  if (end.kind !== 'outside') return { ok: true };
  const listed = known.map((root) => root.configured).join(', ');
  return { ok: false, message: `path '${shown}' is outside the local share roots (${listed}); set DMS_LOCAL_ROOTS to allow another root` };
}
