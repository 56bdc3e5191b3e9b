import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfinedPath } from './confine-path.js';

let base: string;
let root: string;

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'dms-confine-'));
  root = join(base, 'root');
  mkdirSync(join(root, 'share', 'sub'), { recursive: true });
  mkdirSync(join(root, 'other'));
  writeFileSync(join(root, 'share', 'file'), 'x');
  mkdirSync(join(base, 'outside', 'dir'), { recursive: true });
  writeFileSync(join(base, 'outside', 'file'), 'x');
  symlinkSync('self-loop', join(base, 'outside', 'self-loop'));
  // Links out of the root, to targets that exist (of each kind) and to one that does not.
  for (const target of ['dir', 'file', 'self-loop', 'missing']) {
    symlinkSync(join(base, 'outside', target), join(root, `abs-${target}`));
    symlinkSync(join('..', 'outside', target), join(root, `rel-${target}`));
  }
  // Links that stay inside: relative with `..`, absolute, chained, and a loop.
  symlinkSync('../other', join(root, 'share', 'up-to-other'));
  symlinkSync(join(root, 'share'), join(root, 'abs-share'));
  symlinkSync('abs-share/sub', join(root, 'chain'));
  symlinkSync('loop-b', join(root, 'loop-a'));
  symlinkSync('loop-a', join(root, 'loop-b'));
  // A root configured through a symlink confines what it leads to.
  symlinkSync(root, join(base, 'root-link'));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const resolveIn = (path: string) => resolveConfinedPath([root], path);

describe('resolveConfinedPath', () => {
  it('existence oracle: a symlink out of the roots answers the same whether its target exists or not', async () => {
    const answers = new Set<string>();
    for (const kind of ['abs', 'rel'])
      for (const target of ['dir', 'file', 'self-loop', 'missing']) {
        const path = `${kind}-${target}`;
        await expect(resolveIn(path)).rejects.toThrow(`path '${path}' is outside the allowed roots`);
        // Also below the link: nothing under it may be looked at either.
        const error = (await resolveIn(`${path}/x/y`).catch((e: unknown) => e)) as Error;
        answers.add(error.message.replace(`'${path}/x/y'`, "'P'"));
      }
    expect([...answers]).toEqual(["path 'P' is outside the allowed roots"]);
  });

  it('refuses a relative target whose `..` leaves the roots before coming back', async () => {
    symlinkSync('../../root/share', join(root, 'share', 'out-and-back'));
    await expect(resolveIn('share/out-and-back')).rejects.toThrow("path 'share/out-and-back' is outside the allowed roots");
  });

  it('follows links that stay inside the roots', async () => {
    expect(await resolveIn('share/up-to-other')).toBe(join(root, 'other'));
    expect(await resolveIn('abs-share/sub')).toBe(join(root, 'share', 'sub'));
    expect(await resolveIn('chain')).toBe(join(root, 'share', 'sub'));
    expect(await resolveConfinedPath([join(base, 'root-link')], join(base, 'root-link', 'share'))).toBe(join(root, 'share'));
  });

  it.each([
    ['share/nope', "path 'share/nope' not found on share"],
    ['share/file/below', "path 'share/file/below' not found on share"],
    ['share/file', "path 'share/file' is not a directory"],
    ['share/../other', "path 'share/../other' must not contain '..'"],
    ['loop-a', "path 'loop-a' contains a symbolic link loop"],
  ])('keeps the messages for paths inside the roots: %s', async (path, message) => {
    await expect(resolveIn(path)).rejects.toThrow(message);
  });

  it('refuses an absolute path outside the roots without looking at it', async () => {
    const path = join(base, 'outside', 'dir');
    await expect(resolveIn(path)).rejects.toThrow(`path '${path}' is outside the allowed roots`);
  });
});
