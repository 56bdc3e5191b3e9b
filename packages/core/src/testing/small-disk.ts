import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A small tmpfs of the test's own: a file system a test can fill and free. */
export interface SmallDisk {
  dir: string;
  /** Writes a filler file until the file system says ENOSPC. */
  fill(): void;
  /** Deletes the filler: there is room again. */
  free(): void;
  /** Frees and unmounts it (lazily, so an open database does not keep it), and removes the mount point. */
  remove(): void;
}

/**
 * Mounts a tmpfs of `size` (as mount's `-o size=`, e.g. `8m`) for a full-disk test. Mounting
 * needs root: locally, without it, the answer is the reason to skip (printed); on CI (`CI=true`)
 * it is an error, so a full-disk test cannot pass by not running.
 */
export function mountSmallDisk(size: string): SmallDisk | string {
  const refuse = (reason: string): string => {
    if (process.env['CI'] === 'true') throw new Error(`CI needs ${reason}`);
    console.warn(`[skip] ${reason}`);
    return reason;
  };
  if (process.getuid?.() !== 0) return refuse('a full-disk test: mounting a small tmpfs needs root');
  const dir = mkdtempSync(join(tmpdir(), 'dms-small-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    return refuse(`a full-disk test: cannot mount a tmpfs (${(error as Error).message.split('\n')[0]})`);
  }
  const filler = join(dir, 'filler');
  const disk: SmallDisk = {
    dir,
    fill() {
      const fd = openSync(filler, 'a');
      try {
        // Smaller and smaller blocks: no room is left that one page of a database would fit in.
        for (const size of [64 * 1024, 4096, 512, 1]) {
          const block = Buffer.alloc(size, 1);
          try {
            for (;;) writeSync(fd, block);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
          }
        }
      } finally {
        closeSync(fd);
      }
    },
    free() {
      rmSync(filler, { force: true });
    },
    remove() {
      disk.free();
      execFileSync('umount', ['-l', dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return disk;
}
