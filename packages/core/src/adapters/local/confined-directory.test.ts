import { mkdirSync, mkdtempSync, readdirSync, readlinkSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordingRun, shareLocation } from '../../testing/recording-run.js';
import { resolveConfinedPath } from './confine-path.js';
import { openConfinedDirectory, pinConfinedDirectory } from './confined-directory.js';
import { createLocalDriver } from './local-driver.js';
import { canNameDescriptors } from './proc-fd.js';
import { scanConfinedDirectory } from './scan-directory.js';

let base: string;
let root: string;
let share: string;

function write(path: string, bytes: number): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, Buffer.alloc(bytes, 0x61));
}

// The share root/swap/share holds 3 files of 6 bytes; the outside tree, reachable only
// through a swapped-in symlink, holds 5 files of 500 bytes under the same names.
const inside = { file_count: 3, file_size_sum: 6 };
const outsideCounts = { file_count: 5, file_size_sum: 500 };

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'dms-toctou-'));
  root = join(base, 'root');
  share = join(root, 'swap', 'share');
  write(join(share, 'a'), 1);
  write(join(share, 'sub', 'b'), 2);
  write(join(share, 'sub', 'deeper', 'c'), 3);
  for (let i = 0; i < 5; i += 1) write(join(base, 'outside', 'share', 'sub', `o${i}`), 100);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

/** Replaces root/<component> by a symlink to the same place in the outside tree. */
function swapForSymlink(component: 'swap' | 'swap/share'): void {
  renameSync(join(root, component), join(root, `${component}-moved`));
  symlinkSync(join(base, 'outside', component === 'swap' ? '' : 'share'), join(root, component));
}

/** How many of this process's descriptors hold the share's directory (wherever it was moved). */
function descriptorsOnShare(): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`).startsWith(join(root, 'swap'));
    } catch {
      return false;
    }
  }).length;
}

const engines = ['find', 'workers'] as const;
const swapped = ['swap/share', 'swap'] as const;

// Pinning by descriptor needs /proc/self/fd (Linux): elsewhere these cases skip, saying why; on
// CI (Linux) a missing /proc is a broken machine, not a reason to skip.
if (!canNameDescriptors()) {
  if (process.env['CI'] === 'true') throw new Error('CI needs /proc/self/fd to test scans pinned by descriptor');
  console.log('[skip] scan TOCTOU by descriptor: no /proc/self/fd on this platform (the path re-check fallback is tested instead)');
}

describe.skipIf(!canNameDescriptors())('scan TOCTOU (pinned by descriptor)', () => {
  describe.each(engines)('%s engine', (scanEngine) => {
    it.each(swapped)("scan TOCTOU: a directory swapped for a symlink after the check is not followed out of the roots ('%s' swapped)", async (component) => {
      const dir = await openConfinedDirectory([root], 'swap/share');
      try {
        swapForSymlink(component);
        // The path now leads outside; walked by path, the scan would count the outside tree.
        expect(
          await createLocalDriver({ roots: [base], scanEngine }).scan(shareLocation('local', { path: join(root, 'swap', 'share') }), recordingRun()),
        ).toMatchObject(outsideCounts);
        const result = await scanConfinedDirectory(dir, { scanEngine, scanWorkers: 2 }, recordingRun());
        expect(result).toEqual(inside);
      } finally {
        await dir.close();
      }
    });

    it('scan TOCTOU: a scan leaves no descriptor open, whether it ends or is aborted', async () => {
      const driver = createLocalDriver({ roots: [root], scanEngine });
      const location = shareLocation('local', { path: 'swap/share' });
      expect(await driver.scan(location, recordingRun())).toMatchObject(inside);
      const aborted = recordingRun();
      aborted.controller.abort();
      await expect(driver.scan(location, aborted)).rejects.toThrow(/abort/i);
      expect(descriptorsOnShare()).toBe(0);
    });
  });

  it('scan TOCTOU: a directory swapped between the check and the open is refused', async () => {
    const real = await resolveConfinedPath([root], 'swap/share');
    swapForSymlink('swap/share');
    await expect(pinConfinedDirectory([root], real, 'swap/share')).rejects.toThrow("path 'swap/share' changed while it was being opened");
  });

  it('scan TOCTOU: a parent swapped between the check and the open is refused', async () => {
    const real = await resolveConfinedPath([root], 'swap/share');
    swapForSymlink('swap');
    await expect(pinConfinedDirectory([root], real, 'swap/share')).rejects.toThrow("path 'swap/share' is outside the allowed roots");
    expect(descriptorsOnShare()).toBe(0);
  });

  it('the test steps list the pinned directory too', async () => {
    const result = await createLocalDriver({ roots: [root] }).test(shareLocation('local', { path: 'swap/share' }), recordingRun());
    expect(result).toMatchObject({ ok: true });
    expect(descriptorsOnShare()).toBe(0);
  });
});

// macOS and the Windows desktop app have no /proc/self/fd: the realpath re-check is all there is.
describe('scan TOCTOU without /proc (re-checked before and after the walk)', () => {
  it.each(swapped)('a swapped directory fails the scan instead of counting the outside (%s swapped)', async (component) => {
    const dir = await pinConfinedDirectory([root], await resolveConfinedPath([root], 'swap/share'), 'swap/share', false);
    expect(dir.path).toBe(share);
    swapForSymlink(component);
    await expect(scanConfinedDirectory(dir, { scanEngine: 'workers' }, recordingRun())).rejects.toThrow("path 'swap/share' is outside the allowed roots");
  });

  it('an unchanged directory scans as usual', async () => {
    const dir = await pinConfinedDirectory([root], await resolveConfinedPath([root], 'swap/share'), 'swap/share', false);
    expect(await scanConfinedDirectory(dir, { scanEngine: 'workers' }, recordingRun())).toEqual(inside);
  });
});
