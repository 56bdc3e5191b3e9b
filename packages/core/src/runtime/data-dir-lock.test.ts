import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fork } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { lockDataDir } from './data-dir-lock.js';
import { DataDirInUseError } from './data-dir-in-use-error.js';

describe('data dir lock', () => {
  const dirs: string[] = [];
  const newDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'dms-lock-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a second holder, naming the holder, until the first releases', () => {
    const dir = newDir();
    const first = lockDataDir(dir);
    let refusal: unknown;
    try {
      lockDataDir(dir);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(DataDirInUseError);
    expect((refusal as DataDirInUseError).pid).toBe(process.pid);
    expect((refusal as Error).message).toContain(`data dir ${dir} is in use by process ${process.pid}`);
    first.release();
    first.release();
    lockDataDir(dir).release();
  });

  it('is released by the kernel when its holder is killed', async () => {
    const dir = newDir();
    const holder = fork(new URL('../testing/hold-data-dir-lock.ts', import.meta.url).pathname, [dir], {
      execArgv: ['--conditions=source', '--import', 'tsx'],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const ready = await new Promise<unknown>((resolve) => holder.once('message', resolve));
    expect(ready).toBe('locked');
    expect(() => lockDataDir(dir)).toThrow(`in use by process ${holder.pid}`);
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    holder.kill('SIGKILL');
    await exited;
    lockDataDir(dir).release();
  });
});
