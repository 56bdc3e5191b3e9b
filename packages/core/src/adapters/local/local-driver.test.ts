import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DriverError } from '../../ports/share-driver.js';
import { ScanAnalyticsBuilder } from '../../scans/scan-analytics-builder.js';
import { recordingAnalyticsSink } from '../../testing/recording-analytics-sink.js';
import { recordingRun, shareLocation } from '../../testing/recording-run.js';
import { createLocalDriver } from './local-driver.js';
import { loadNativeWalker } from './native-walk.js';

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

  it('opens a relative path inside the first root and says what it listed', async () => {
    const run = recordingRun();
    // 9 entries in share/: the test reads 8 at most and says it stopped there.
    expect(await driver().test(shareLocation('local', { path: 'share' }), run)).toMatchObject({
      ok: true,
      message: `opened 'share', listed the first 8 entries (host path: ${join(root1, 'share')})`,
    });
    expect(run.steps.map((s) => [s.name, s.outcome])).toEqual([
      ['open_path', 'ok'],
      ['list', 'ok'],
    ]);
  });

  it('opens an absolute path inside any root', async () => {
    const result = await driver().test(shareLocation('local', { path: join(root2, 'other') }), recordingRun());
    expect(result).toMatchObject({ ok: true, message: `opened '${join(root2, 'other')}', 1 entry listed (host path: ${join(root2, 'other')})` });
  });

  it('names the real directory it opened, not the symlink that led there', async () => {
    const result = await driver().test(shareLocation('local', { path: 'share/link-to-dir' }), recordingRun());
    expect(result).toMatchObject({ ok: true, message: `opened 'share/link-to-dir', 2 entries listed (host path: ${join(root1, 'share', 'nested')})` });
  });

  it.each([
    ['share/../../outside', "path 'share/../../outside' must not contain '..'"],
    // <root1>: the first root, made in beforeAll; the driver names the host path it checked.
    ['nope/x', "path 'nope/x' not found on share (host path: <root1>/nope/x)"],
    ['share/a.txt', "path 'share/a.txt' is not a directory (host path: <root1>/share/a.txt)"],
    ['escape', "path 'escape' is outside the allowed roots"],
  ])('refuses %s', async (path, shown) => {
    const message = shown.replace('<root1>', root1);
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
    const result = await createLocalDriver({ roots: [] }).test(shareLocation('local', { path: 'share' }), recordingRun());
    expect(result).toMatchObject({ ok: false, message: expect.stringContaining('no local roots') });
  });
});

// The C walker where it was built (native-walk.test.ts fails on CI when it was not).
const engines = ['find', 'workers', ...((await loadNativeWalker()).walker === undefined ? [] : ['native' as const])] as const;

describe.each(engines)('local driver scan (%s engine)', (scanEngine) => {
  it('counts regular files and apparent sizes, never following symlinks', async () => {
    const driver = createLocalDriver({ roots: [root1], scanEngine });
    const result = await driver.scan(shareLocation('local', { path: 'share' }), recordingRun());
    // a.txt 5, .hidden 3, empty 0, file.bin 1000, x 7, b c.txt 11; links and dirs not counted.
    expect(result).toMatchObject({ file_count: 6, file_size_sum: 1026 });
  });

  it('counts a tree reached through an absolute path, with one worker too', async () => {
    const driver = createLocalDriver({ roots: [root1], scanEngine, scanWorkers: 1 });
    const result = await driver.scan(shareLocation('local', { path: join(root1, 'share', 'nested') }), recordingRun());
    expect(result).toMatchObject({ file_count: 2, file_size_sum: 1007 });
  });

  // The C walker hands folded batches, which a recording sink does not take: it feeds the builder.
  it.runIf(scanEngine === 'native')('feeds the analytics builder a scan asks for, with share-relative paths', async () => {
    const driver = createLocalDriver({ roots: [root1], scanEngine });
    const builder = new ScanAnalyticsBuilder(Date.now());
    const result = await driver.scan(shareLocation('local', { path: 'share' }), { ...recordingRun(), analytics: builder });
    expect(result).toMatchObject({ file_count: 6, file_size_sum: 1026 });
    const analytics = builder.result();
    expect(analytics.largest_files.map((file) => [file.path, file.bytes])).toEqual([
      ['/nested/deep/er/file.bin', 1000],
      ['/with space/b c.txt', 11],
      ['/nested/x', 7],
      ['/a.txt', 5],
      ['/.hidden', 3],
      ['/empty', 0],
    ]);
    expect(analytics.top_directories.map((directory) => [directory.path, directory.files]).sort()).toEqual([
      ['/emptydir', 0],
      ['/nested', 2],
      ['/nested/deep', 1],
      ['/nested/deep/er', 1],
      ['/with space', 1],
    ]);
  });

  // The C walker takes only a sink that folds (scanConfinedDirectory); the builder test above runs for it.
  it.skipIf(scanEngine === 'native')('feeds the analytics a scan asks for, with share-relative paths', async () => {
    const driver = createLocalDriver({ roots: [root1], scanEngine });
    const analytics = recordingAnalyticsSink();
    const result = await driver.scan(shareLocation('local', { path: 'share' }), { ...recordingRun(), analytics });
    expect(result).toMatchObject({ file_count: 6, file_size_sum: 1026 });
    expect(analytics.files.map((file) => [file.path, file.bytes]).sort()).toEqual([
      ['/.hidden', 3],
      ['/a.txt', 5],
      ['/empty', 0],
      ['/nested/deep/er/file.bin', 1000],
      ['/nested/x', 7],
      ['/with space/b c.txt', 11],
    ]);
    expect(analytics.directories.map((directory) => [directory.path, directory.subdirectories]).sort()).toEqual([
      ['/', 3],
      ['/emptydir', 0],
      ['/nested', 1],
      ['/nested/deep', 1],
      ['/nested/deep/er', 0],
      ['/with space', 0],
    ]);
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

describe('local driver checkPath (when a share is saved)', () => {
  const check = (path: string, roots = [root1, root2]) => createLocalDriver({ roots }).checkPath?.(shareLocation('local', { path }));
  const outside = (shown: string) => ({
    ok: false,
    message: `path '${shown}' is outside the local share roots (${root1}, ${root2}); set DMS_LOCAL_ROOTS to allow another root`,
  });

  it.each([
    ['a relative path in the first root', 'share'],
    ['an absolute path in another root', '/ROOT2/other'],
    ['a directory that does not exist yet', 'not/made/yet'],
    ['a path below a file (the driver says so when it opens it)', 'share/a.txt/below'],
    ['a symlink that stays inside', 'share/link-to-dir'],
  ])('accepts %s', async (_what, path) => {
    expect(await check(path.replace('/ROOT2', root2))).toEqual({ ok: true });
  });

  it('refuses an absolute path outside the roots, naming the roots and DMS_LOCAL_ROOTS', async () => {
    expect(await check('/etc')).toEqual(outside('/etc'));
  });

  it('shows a relative path as resolved in the first root', async () => {
    expect(await check('escape')).toEqual(outside(join(root1, 'escape')));
  });

  it('refuses a symlink out of the roots, and what lies below it, the same way', async () => {
    expect(await check('share/link-out')).toEqual(outside(join(root1, 'share', 'link-out')));
    expect(await check('share/link-out/not/there')).toEqual(outside(join(root1, 'share', 'link-out', 'not', 'there')));
  });

  it("refuses '..' as the driver does", async () => {
    expect(await check('share/../share')).toEqual({ ok: false, message: "path 'share/../share' must not contain '..'" });
  });

  it('refuses everything when no roots are configured', async () => {
    expect(await check('share', [])).toMatchObject({ ok: false, message: expect.stringContaining('no local roots') });
  });
});
