import { open, readlink } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { DriverError } from '../../ports/share-driver.js';
import { isInsideRealRoot, localFsMessage, realRoots, resolveConfinedPath } from './confine-path.js';
import { OPEN_DIRECTORY_NOFOLLOW, canNameDescriptors, descriptorPath } from './proc-fd.js';

/** A share's directory, checked to lie inside the roots, for a walk to start from. */
export interface ConfinedDirectory {
  /**
   * What to walk: `/proc/self/fd/N` naming the directory that was opened and checked, so a
   * directory swapped for a symlink afterwards is not followed; without /proc, its real path.
   */
  readonly path: string;
  /** The real path that was checked, for messages: never `/proc/self/fd/N`. */
  readonly real: string;
  /**
   * Where the directory could not be pinned (no /proc: macOS, the Windows desktop app), checks
   * again that the share path still resolves, inside the roots, to the same real directory;
   * call right before and after the walk. This narrows the window of a swap but cannot close
   * it. A no-op when pinned.
   */
  verify(): Promise<void>;
  /** Releases the descriptor; safe to call more than once. */
  close(): Promise<void>;
}

/**
 * Opens the directory `resolveConfinedPath` checked and checks what was actually opened: a
 * component swapped for a symlink between the check and the open leads elsewhere, and is
 * refused here instead of being walked. `real` is what resolveConfinedPath gave for `sharePath`.
 */
export async function pinConfinedDirectory(roots: readonly string[], real: string, sharePath: string, pin = canNameDescriptors()): Promise<ConfinedDirectory> {
  const shown = sharePath;
  if (!pin) {
    // Resolved again the same way (never touching anything outside the roots, so a failed
    // re-check tells nothing about what exists there) and it must still be the same directory.
    const verify = async () => {
      if ((await resolveConfinedPath(roots, sharePath)) !== real) throw new DriverError(`path '${shown}' changed during the scan`);
    };
    return { path: real, real, verify, close: async () => {} };
  }
  const known = await realRoots(roots);
  const outside = () => new DriverError(`path '${shown}' is outside the allowed roots`);
  let handle: FileHandle;
  try {
    handle = await open(real, OPEN_DIRECTORY_NOFOLLOW);
  } catch (error) {
    // The check found a directory here: O_NOFOLLOW|O_DIRECTORY now finding a symlink (ENOTDIR
    // on Linux, ELOOP elsewhere) or a file means it was swapped since.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'ENOTDIR') throw new DriverError(`path '${shown}' changed while it was being opened`);
    throw new DriverError(localFsMessage(error, shown));
  }
  const path = descriptorPath(handle.fd);
  try {
    // readlink of the descriptor is the kernel's own name for what was opened; realpath would
    // walk that name again and could be raced once more.
    if (!isInsideRealRoot(await readlink(path), known)) throw outside();
  } catch (error) {
    await handle.close();
    throw error instanceof DriverError ? error : new DriverError(localFsMessage(error, shown));
  }
  let closed: Promise<void> | undefined;
  return { path, real, verify: async () => {}, close: () => (closed ??= handle.close()) };
}

/** Resolves a share path inside the roots (see resolveConfinedPath) and pins the directory. */
export async function openConfinedDirectory(roots: readonly string[], sharePath: string): Promise<ConfinedDirectory> {
  return pinConfinedDirectory(roots, await resolveConfinedPath(roots, sharePath), sharePath);
}
