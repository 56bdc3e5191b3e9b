import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DriverError } from '../../ports/share-driver.js';
import { recordingRun, shareLocation } from '../../testing/recording-run.js';
import { createLocalDriver } from './local-driver.js';

let base: string;
let root1: string;
let root2: string;

function write(path: string, bytes: number): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, Buffer.alloc(bytes, 0x61));
}

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'dms-local-'));
  root1 = join(base, 'root1');
  root2 = join(base, 'root2');
  mkdirSync(join(base, 'outside'), { recursive: true });
  write(join(base, 'outside', 'secret'), 10);
  const share = join(root1, 'share');
  write(join(share, 'a.txt'), 5);
  write(join(share, '.hidden'), 3);
  write(join(share, 'empty'), 0);
  write(join(share, 'nested', 'deep', 'er', 'file.bin'), 1000);
  write(join(share, 'nested', 'x'), 7);
  write(join(share, 'with space', 'b c.txt'), 11);
  mkdirSync(join(share, 'emptydir'));
  symlinkSync('a.txt', join(share, 'link-to-file'));
  symlinkSync('nested', join(share, 'link-to-dir'));
  symlinkSync(join(base, 'outside'), join(share, 'link-out'));
  symlinkSync(join(base, 'outside'), join(root1, 'escape'));
  write(join(root2, 'other', 'f'), 1);
});

afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('local driver test', () => {
  const driver = () => createLocalDriver({ roots: [root1, root2] });

  it('announces open_path and list', () => {
    expect(driver().testSteps(shareLocation('local'))).toEqual(['open_path', 'list']);
  });

  it('opens a relative path inside the first root', async () => {
    const run = recordingRun();
    expect(await driver().test(shareLocation('local', { path: 'share' }), run)).toEqual({ ok: true });
    expect(run.steps.map((s) => [s.name, s.outcome])).toEqual([
      ['open_path', 'ok'],
      ['list', 'ok'],
    ]);
  });

  it('opens an absolute path inside any root', async () => {
    const result = await driver().test(shareLocation('local', { path: join(root2, 'other') }), recordingRun());
    expect(result).toEqual({ ok: true });
  });

  it.each([
    ['share/../../outside', "path 'share/../../outside' must not contain '..'"],
    ['nope/x', "path 'nope/x' not found on share"],
    ['share/a.txt', "path 'share/a.txt' is not a directory"],
    ['escape', "path 'escape' is outside the allowed roots"],
  ])('refuses %s', async (path, message) => {
    const run = recordingRun();
    expect(await driver().test(shareLocation('local', { path }), run)).toEqual({ ok: false, message });
    expect(run.steps).toEqual([
      { name: 'open_path', outcome: 'failed', duration_ms: expect.any(Number), message },
      { name: 'list', outcome: 'skipped', duration_ms: 0 },
    ]);
  });

  it('refuses an absolute path outside the roots', async () => {
    const path = join(base, 'outside');
    const result = await driver().test(shareLocation('local', { path }), recordingRun());
    expect(result).toEqual({ ok: false, message: `path '${path}' is outside the allowed roots` });
  });

  it('refuses everything when no roots are configured', async () => {
    const result = await createLocalDriver({ roots: [] }).test(
      shareLocation('local', { path: 'share' }),
      recordingRun()
    );
    expect(result).toMatchObject({ ok: false, message: expect.stringContaining('no local roots') });
  });
});

const engines = ['find', 'workers'] as const;

describe.each(engines)('local driver scan (%s engine)', (scanEngine) => {
  it('counts regular files and apparent sizes, never following symlinks', async () => {
    const driver = createLocalDriver({ roots: [root1], scanEngine });
    const result = await driver.scan(shareLocation('local', { path: 'share' }), recordingRun());
    // a.txt 5, .hidden 3, empty 0, file.bin 1000, x 7, b c.txt 11; links and dirs not counted.
    expect(result).toEqual({ file_count: 6, file_size_sum: 1026 });
  });

  it('counts a tree reached through an absolute path, with one worker too', async () => {
    const driver = createLocalDriver({ roots: [root1], scanEngine, scanWorkers: 1 });
    const result = await driver.scan(shareLocation('local', { path: join(root1, 'share', 'nested') }), recordingRun());
    expect(result).toEqual({ file_count: 2, file_size_sum: 1007 });
  });

  it('throws a DriverError for a refused path', async () => {
    const driver = createLocalDriver({ roots: [root1], scanEngine });
    const scan = driver.scan(shareLocation('local', { path: 'escape' }), recordingRun());
    await expect(scan).rejects.toBeInstanceOf(DriverError);
    await expect(scan).rejects.toThrow('outside the allowed roots');
  });

  it('stops when the run is aborted', async () => {
    const driver = createLocalDriver({ roots: [root1], scanEngine });
    const run = recordingRun();
    run.controller.abort();
    await expect(driver.scan(shareLocation('local', { path: 'share' }), run)).rejects.toThrow(/abort/i);
  });
});
