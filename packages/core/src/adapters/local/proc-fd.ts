import { constants, existsSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { DriverError } from '../../ports/share-driver.js';
import { localFsMessage } from './confine-path.js';

/**
 * Node has no openat/fdopendir, so an opened directory is walked through its name in
 * /proc/self/fd: opening or listing `/proc/self/fd/N/...` starts at the directory the
 * descriptor holds, wherever it has been moved and whatever now sits at its old path.
 * Worker threads share the process's descriptor table, so the name is valid in them too.
 */
export function descriptorPath(fd: number): string {
  return `/proc/self/fd/${fd}`;
}

let available: boolean | undefined;

/** Whether descriptors can be named as above: Linux with /proc mounted; not macOS or Windows. */
export function canNameDescriptors(): boolean {
  available ??= process.platform === 'linux' && constants.O_DIRECTORY !== undefined && constants.O_NOFOLLOW !== undefined && existsSync('/proc/self/fd');
  return available;
}

/** Opens a directory only: never a file, and never a symlink standing in the last component. */
export const OPEN_DIRECTORY_NOFOLLOW = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/**
 * Opens a walk's start (a /proc/self/fd name of a pinned directory, or a checked real path),
 * following it as `find -H` does, so the walk runs from the directory opened here and not from
 * whatever the path names by the time the walker gets to it. Undefined without /proc: the
 * walker then goes by path.
 */
export async function openWalkStart(root: string): Promise<FileHandle | undefined> {
  if (!canNameDescriptors()) return undefined;
  try {
    return await open(root, constants.O_RDONLY | constants.O_DIRECTORY);
  } catch (error) {
    throw new DriverError(localFsMessage(error, '.'));
  }
}
