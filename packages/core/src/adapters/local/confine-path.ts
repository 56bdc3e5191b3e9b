import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, resolve, sep } from 'node:path';
import { DriverError } from '../../ports/share-driver.js';

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

async function realRoots(roots: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const root of roots) {
    // A root that does not exist (yet) confines nothing; it must not fail other roots.
    try {
      found.push(await realpath(resolve(root)));
    } catch {
      /* skipped */
    }
  }
  return found;
}

/**
 * Maps a local share's `path` to a real directory inside the configured roots: relative paths
 * live in the first root, absolute ones must lie in one of them, `..` is refused outright,
 * and the symlink-free real path is checked again so a link cannot lead out of the roots.
 */
export async function resolveConfinedPath(roots: readonly string[], sharePath: string): Promise<string> {
  const shown = sharePath;
  const first = roots[0];
  if (first === undefined)
    throw new DriverError('local shares are disabled on this server: no local roots are configured');
  if (sharePath.split('/').includes('..')) throw new DriverError(`path '${shown}' must not contain '..'`);
  const candidate = isAbsolute(sharePath) ? resolve(sharePath) : resolve(first, sharePath);
  if (!roots.some((root) => isInside(candidate, resolve(root)))) {
    throw new DriverError(`path '${shown}' is outside the allowed roots`);
  }
  let real: string;
  try {
    real = await realpath(candidate);
  } catch (error) {
    throw new DriverError(localFsMessage(error, shown));
  }
  if (!(await realRoots(roots)).some((root) => isInside(real, root))) {
    throw new DriverError(`path '${shown}' is outside the allowed roots (a symbolic link leads out of them)`);
  }
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(real)).isDirectory();
  } catch (error) {
    throw new DriverError(localFsMessage(error, shown));
  }
  if (!isDirectory) throw new DriverError(`path '${shown}' is not a directory`);
  return real;
}
