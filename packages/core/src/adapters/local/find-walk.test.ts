import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { requireTools } from '../../testing/require-tool.js';
import { classifyFindError, detectGnuFind, findWalk } from './find-walk.js';

const tools = requireTools(['find'], 'apt-get install findutils');

describe('classifyFindError', () => {
  it.each([
    ["find: '/s/gone': No such file or directory", 'vanished', '/s/gone'],
    ["find: '/s/was a dir': Not a directory", 'vanished', '/s/was a dir'],
    ["find: '/s/it\\'s': Permission denied", 'denied', "/s/it\\'s"],
    ["find: '/s/x': Input/output error", 'other', '/s/x'],
    ['find: something unexpected', 'other', 'find: something unexpected'],
  ])('%s', (line, kind, path) => {
    expect(classifyFindError(line)).toEqual({ kind, path });
  });
});

// Without the real peer this prints why it skips; with CI=true requireTools fails instead.
describe.skipIf(!tools.ok)('findWalk', () => {
  let root: string;
  const signal = () => new AbortController().signal;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'dms-find-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('is GNU find here', async () => {
    expect(await detectGnuFind()).toBe('find');
  });

  it('survives subtrees deleted while it walks', async () => {
    mkdirSync(join(root, 'keep'));
    for (let d = 0; d < 40; d += 1) {
      mkdirSync(join(root, `gone${d}`, 'sub'), { recursive: true });
      for (let f = 0; f < 100; f += 1) writeFileSync(join(root, `gone${d}`, 'sub', `f${f}`), 'x');
      writeFileSync(join(root, 'keep', `k${d}`), 'yy');
    }
    let removed = false;
    const result = await findWalk(root, {
      signal: signal(),
      progressIntervalMs: 0,
      onProgress: () => {
        if (removed) return;
        removed = true;
        for (let d = 0; d < 40; d += 1) rmSync(join(root, `gone${d}`), { recursive: true });
      },
    });
    expect(removed).toBe(true);
    // Whatever find reached before the removal counts; the 40 kept files always do.
    expect(result.file_count).toBeGreaterThanOrEqual(40);
    expect(result.file_count).toBeLessThanOrEqual(4040);
  });

  it('fails with a plain message when the root is gone', async () => {
    await expect(findWalk(join(root, 'missing'), { signal: signal(), onProgress: () => {} })).rejects.toThrow("path '.' not found on share");
  });

  it('reports directories and files in progress', async () => {
    for (let d = 0; d < 3; d += 1) {
      mkdirSync(join(root, `d${d}`));
      writeFileSync(join(root, `d${d}`, 'f'), '1234');
    }
    const seen: number[] = [];
    const result = await findWalk(root, {
      signal: signal(),
      progressIntervalMs: 0,
      onProgress: (p) => seen.push(p.directories),
    });
    expect(result).toEqual({ file_count: 3, file_size_sum: 12 });
    expect(seen.at(-1)).toBe(4);
  });
});
