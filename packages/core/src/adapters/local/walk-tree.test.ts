import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ScanProgress } from '../../ports/share-driver.js';
import { canNameDescriptors } from './proc-fd.js';
import { walkTree } from './walk-tree.js';

// Pinning by descriptor needs /proc/self/fd (Linux): elsewhere these cases skip, saying why; on
// CI (Linux) a missing /proc is a broken machine, not a reason to skip.
if (!canNameDescriptors()) {
  if (process.env['CI'] === 'true') throw new Error('CI needs /proc/self/fd to test scans pinned by descriptor');
  console.log('[skip] scan TOCTOU by descriptor: no /proc/self/fd on this platform (the path re-check fallback is tested instead)');
}

let root: string;

function write(path: string, bytes: number): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, Buffer.alloc(bytes));
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'dms-walk-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('walkTree', () => {
  it('survives directories that vanish or turn into files mid-walk', async () => {
    write(join(root, 'top'), 1);
    for (const name of ['a', 'b', 'c']) write(join(root, 'keep', name), 2);
    for (const name of ['a', 'b', 'c', 'd']) write(join(root, 'gone', 'sub', 'deeper', name), 4);
    write(join(root, 'turned', 'inner'), 8);
    let first = true;
    const result = await walkTree(root, {
      signal: new AbortController().signal,
      workers: 2,
      batchMs: 0,
      progressIntervalMs: 0,
      // The first report comes after the root alone was listed, before its subdirectories
      // are handed out: everything removed here is gone when the workers reach it.
      onProgress: () => {
        if (!first) return;
        first = false;
        rmSync(join(root, 'gone'), { recursive: true });
        rmSync(join(root, 'turned'), { recursive: true });
        writeFileSync(join(root, 'turned'), 'now a file');
      },
    });
    expect(first).toBe(false);
    expect(result).toEqual({ file_count: 4, file_size_sum: 7 });
  });

  it('reports progress periodically with running totals', async () => {
    for (let d = 0; d < 20; d += 1) for (let f = 0; f < 5; f += 1) write(join(root, `d${d}`, `f${f}`), 3);
    const seen: ScanProgress[] = [];
    const result = await walkTree(root, {
      signal: new AbortController().signal,
      batchMs: 0,
      progressIntervalMs: 0,
      onProgress: (p) => seen.push(p),
    });
    expect(result).toEqual({ file_count: 100, file_size_sum: 300 });
    expect(seen.length).toBeGreaterThan(1);
    const last = seen.at(-1);
    expect(last?.file_count).toBeLessThanOrEqual(100);
    expect(seen.every((p, i) => i === 0 || p.file_count >= (seen[i - 1]?.file_count ?? 0))).toBe(true);
  });

  it('fails with a plain message when the root itself is gone', async () => {
    const missing = join(root, 'missing');
    await expect(walkTree(missing, { signal: new AbortController().signal, onProgress: () => {} })).rejects.toThrow("path '.' not found on share");
  });

  it('stops a running walk on abort', async () => {
    for (let d = 0; d < 50; d += 1) write(join(root, `d${d}`, 'f'), 1);
    const controller = new AbortController();
    const walk = walkTree(root, {
      signal: controller.signal,
      batchMs: 0,
      progressIntervalMs: 0,
      onProgress: () => controller.abort(),
    });
    await expect(walk).rejects.toThrow(/abort/i);
  });

  // One worker, one directory per batch: the 2nd report comes after root/a was listed and
  // before root/a/b is entered, so the swap below lands exactly in between.
  it.skipIf(!canNameDescriptors()).each(['a', 'a/b'])(
    "scan TOCTOU: a subdirectory swapped for a symlink mid-walk is not followed out ('%s' swapped)",
    async (component) => {
      const outside = mkdtempSync(join(tmpdir(), 'dms-walk-outside-'));
      try {
        for (let i = 0; i < 5; i += 1) write(join(outside, 'b', `o${i}`), 100);
        write(join(root, 'top'), 2);
        write(join(root, 'a', 'b', 'f'), 1);
        let reports = 0;
        const result = await walkTree(root, {
          signal: new AbortController().signal,
          workers: 1,
          batchMs: 0,
          progressIntervalMs: 0,
          onProgress: () => {
            reports += 1;
            if (reports !== 2) return;
            renameSync(join(root, component), join(root, `${component}-moved`));
            symlinkSync(component === 'a' ? outside : join(outside, 'b'), join(root, component));
          },
        });
        expect(reports).toBeGreaterThanOrEqual(2);
        // root/a/b went away with the swap; the outside files are never counted.
        expect(result).toEqual({ file_count: 1, file_size_sum: 2 });
      } finally {
        rmSync(outside, { recursive: true, force: true });
      }
    },
  );
});
