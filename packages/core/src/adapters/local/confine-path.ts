import { lstat, readlink, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, parse, resolve, sep } from 'node:path';
import { DriverError } from '../../ports/share-driver.js';

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
    })
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
function anchorInRoots(
  path: string,
  roots: readonly ConfiningRoot[]
): { root: ConfiningRoot; rest: string[] } | undefined {
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
 * Maps a local share's `path` to a real directory inside the configured roots: relative paths
 * live in the first root, absolute ones must lie in one of them, `..` is refused outright.
 *
 * The path is resolved one component at a time (lstat each; a symlink's target is checked
 * against the real roots before anything under it is touched), so nothing outside the roots
 * is ever stat'ed: a path that leads out gets one answer whether or not its target exists,
 * and cannot be used to learn which paths exist outside the roots.
 */
export async function resolveConfinedPath(roots: readonly string[], sharePath: string): Promise<string> {
  const shown = sharePath;
  const first = roots[0];
  if (first === undefined)
    throw new DriverError('local shares are disabled on this server: no local roots are configured');
  if (sharePath.split('/').includes('..')) throw new DriverError(`path '${shown}' must not contain '..'`);
  const outside = () => new DriverError(`path '${shown}' is outside the allowed roots`);
  const notFound = (error: unknown) => new DriverError(localFsMessage(error, shown));
  const known = await realRoots(roots);

  const start = anchorInRoots(isAbsolute(sharePath) ? resolve(sharePath) : resolve(first, sharePath), known);
  if (start === undefined) throw outside();
  if (start.root.real === undefined) throw notFound(Object.assign(new Error('root missing'), { code: 'ENOENT' }));
  let dir = start.root.real;
  const pending = start.rest;
  let hops = 0;
  while (pending.length > 0) {
    const part = pending.shift() as string;
    if (part === '..') {
      // `dir` has no symlinks in it, so its parent is what `..` really means.
      dir = dirname(dir);
      if (!isInsideRealRoot(dir, known)) throw outside();
      continue;
    }
    const next = join(dir, part);
    const info = await lstat(next).catch((error: unknown) => {
      throw notFound(error);
    });
    if (info.isSymbolicLink()) {
      hops += 1;
      if (hops > MAX_SYMLINK_HOPS) throw notFound(Object.assign(new Error('loop'), { code: 'ELOOP' }));
      const target = await readlink(next).catch((error: unknown) => {
        throw notFound(error);
      });
      if (isAbsolute(target)) {
        const anchored = anchorInRoots(target, known);
        if (anchored?.root.real === undefined) throw outside();
        dir = anchored.root.real;
        pending.unshift(...anchored.rest);
      } else {
        // Relative to the directory holding the link, which `dir` is.
        pending.unshift(...pathParts(target).parts);
      }
      continue;
    }
    if (pending.length > 0 && !info.isDirectory())
      throw notFound(Object.assign(new Error('not a directory'), { code: 'ENOTDIR' }));
    dir = next;
  }
  if (!isInsideRealRoot(dir, known)) throw outside();
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(dir)).isDirectory();
  } catch (error) {
    throw notFound(error);
  }
  if (!isDirectory) throw new DriverError(`path '${shown}' is not a directory`);
  return dir;
}
