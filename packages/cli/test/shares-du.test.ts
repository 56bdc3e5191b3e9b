import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScanAnalyticsBuilder } from '@dms/core';
import { openPostgresStorage } from '@dms/core/postgres';
import { openSqliteStorage } from '@dms/core/sqlite';
import { cli, cliAdapters, migratedDataDir } from './support/cli-run.js';
import { duSize } from '../src/shares-du-command.js';

/** Issue 43: `dms shares du REF` prints a share's directories from its latest scan as `du -h --max-depth` does. */

const adapters = await cliAdapters('dms shares du');

describe('du sizes', () => {
  it('reads as du -h: bytes below 1 KiB, one decimal below 10 of a unit, rounded up', () => {
    expect([0, 1000, 1024, 1025, 10 * 1024, 1536 * 1024, 5 * 1024 ** 3 + 1].map(duSize)).toEqual(['0', '1000', '1.0K', '1.1K', '10K', '1.5M', '5.1G']);
  });
});

describe.each(adapters)('dms shares du on %s', (adapter) => {
  migratedDataDir(adapter, { prefix: 'dms-cli-du-' });

  it('prints the top directories, deepest first under each, the root last, to the depth asked', async () => {
    expect((await cli('nas', 'add', 'filer', '--host', '192.0.2.7', '--type', 'smb_v3')).code).toBe(0);
    expect((await cli('shares', 'add', 'filer', 'projects', '--path', 'projects')).code).toBe(0);
    expect((await cli('shares', 'du', 'projects')).errors).toContain("share projects has no completed scan yet: 'dms shares scan projects --wait' runs one");

    const builder = new ScanAnalyticsBuilder(Date.now());
    const files: Array<[string, number]> = [
      ['/a/b/c', 3 * 1024 * 1024],
      ['/a/b', 1024],
      ['/a', 10],
      ['/z y', 2048],
      ['/a/b/c/d', 7],
    ];
    for (const [directory, bytes] of files) builder.file(directory, 'f.bin', bytes, Date.now(), null);
    for (const [path, subdirectories] of [
      ['/a/b/c/d', 0],
      ['/a/b/c', 1],
      ['/a/b', 1],
      ['/a', 1],
      ['/z y', 0],
      ['/', 2],
    ] as const)
      builder.directory(path, subdirectories);
    const url = process.env['DMS_DATABASE_URL'];
    const storage = url ? openPostgresStorage({ url }) : openSqliteStorage({ file: join(process.env['DMS_DATA_DIR']!, 'dms.sqlite') });
    try {
      const total = files.reduce((sum, [, bytes]) => sum + bytes, 0);
      const share = (await storage.shares.findByName('projects'))[0]!;
      await storage.shares.recordScan(
        share.id,
        { at: new Date().toISOString(), file_count: 5, file_size_sum: total, duration_ms: 1, capacity_bytes: null, free_bytes: null },
        builder.result(),
      );
    } finally {
      await storage.close();
    }

    expect(await cli('shares', 'du', 'projects')).toEqual({
      code: 0,
      lines: ['3.1M\t/a/b/c', '3.1M\t/a/b', '3.1M\t/a', '2.0K\t/z y', '3.1M\t/'],
      errors: '',
    });
    expect((await cli('shares', 'du', 'projects', '--max-depth', '1', '--bytes')).lines).toEqual([
      `${3 * 1024 * 1024 + 1024 + 10 + 7}\t/a`,
      '2048\t/z y',
      `${3 * 1024 * 1024 + 1024 + 10 + 7 + 2048}\t/`,
    ]);
    expect((await cli('shares', 'du', 'projects', '--max-depth', '4')).errors).toContain('--max-depth must be 0, 1, 2 or 3');
  });
});
