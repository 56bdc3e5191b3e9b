import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { systemPrincipal } from '@dms/core';
import { openPostgresStorage } from '@dms/core/postgres';
import { openSqliteStorage } from '@dms/core/sqlite';
import { createTestDatabase, postgresUnreachable, type TestDatabase } from '@dms/core/testing';
import type { Storage } from '@dms/core/runtime';
import { runCli } from '../src/commands.js';
import { readConfig } from '@dms/http-api';
import { openForCommand } from '@dms/http-api';

/**
 * Issue 25 item 5: `dms shares scan REF --wait` shows the scan advancing, a line at each step.
 * The test is the worker: it takes the job from storage, as a `dms serve` on the data dir would,
 * and stores its progress a step at a time, waiting for the CLI to show each before the next, so
 * no step can be missed however fast a real walk would be.
 */

const pgUnreachable = await postgresUnreachable();
if (pgUnreachable && process.env['CI'] === 'true') throw new Error(`CI runs the CLI suite on PostgreSQL too, but ${pgUnreachable}`);
if (pgUnreachable) console.warn(`[skip] dms shares scan --wait on PostgreSQL: ${pgUnreachable}`);

const worker = 'test-worker';
const now = () => new Date().toISOString();

/** Waits for a condition (a minute at most, on a busy machine); `what` says what it was when it gives up. */
async function until<T>(what: () => string, probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.each(['sqlite', ...(pgUnreachable ? [] : ['postgres'])])('dms shares scan --wait on %s', (adapter) => {
  const saved = { ...process.env };
  let dir: string;
  let database: TestDatabase | undefined;
  let storage: Storage;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dms-cli-wait-'));
    mkdirSync(join(dir, 'shares', 'projects'), { recursive: true });
    process.env['DMS_DATA_DIR'] = dir;
    delete process.env['DMS_DATABASE_URL'];
    if (adapter === 'postgres') {
      database = await createTestDatabase();
      process.env['DMS_DATABASE_URL'] = database.url;
    }
    expect(await runCli(['migrate'], () => {})).toBe(0);
    const dms = await openForCommand(readConfig());
    try {
      await dms.core.nas.create(systemPrincipal, { name: 'local', host: 'localhost', type: 'local' });
      await dms.core.shares.create(systemPrincipal, 'local', { name: 'projects', path: 'projects' });
    } finally {
      await dms.close();
    }
    storage = database ? openPostgresStorage({ url: database.url }) : openSqliteStorage({ file: join(dir, 'dms.sqlite') });
  });
  afterEach(async () => {
    await storage?.close();
    process.env = { ...saved };
    await database?.drop();
    database = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints a line each time the scan counts more, then how it ended; exit 0', async () => {
    const lines: string[] = [];
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const waiting = runCli(['shares', 'scan', 'projects', '--wait', '--timeout', '120'], (line) => lines.push(line));
      const job = await until(
        () => `the queued scan; the CLI printed ${JSON.stringify(lines)}`,
        () => storage.jobs.claim(worker, now()),
      );
      expect(job.kind).toBe('share_scan');
      const shown = (text: string) =>
        until(
          () => `the line '${text}' among ${JSON.stringify(lines)}`,
          () => lines.find((line) => line === text),
        );
      // The CLI has read the job once (queued, or working if the claim came first) before it advances.
      await until(
        () => `the job's first status among ${JSON.stringify(lines)}`,
        () => lines.find((line) => line.startsWith(`job ${job.id}: `)),
      );

      for (const [files, bytes, size] of [
        [1_000, 2_000, '2.0 kB'],
        [2_500, 5_000_000, '5.0 MB'],
      ] as const) {
        await storage.jobs.progress(job.id, worker, { progress: files, total: 0, steps: [], result: { file_count: files, file_size_sum: bytes } }, now());
        await shown(`job ${job.id}: working, ${files} files, ${size}`);
      }
      const counts = { file_count: 2_600, file_size_sum: 6_000_000 };
      await storage.jobs.finish(
        job.id,
        worker,
        { status: 'completed', message: 'counted 2,600 files, 6.0 MB', progress: 2_600, total: 2_600, steps: [], result: counts },
        now(),
      );
      expect(await waiting).toBe(0);
    } finally {
      stderr.mockRestore();
    }
    expect(lines[0]).toMatch(/^queued scan job \S+ of share projects$/);
    // From the job as it was first read (queued, or already working) to the end: one line a change, none missed.
    expect(lines.slice(2, -1)).toEqual([
      expect.stringMatching(/^job \S+: (queued|working)$/),
      expect.stringMatching(/^job \S+: working, 1000 files, 2\.0 kB$/),
      expect.stringMatching(/^job \S+: working, 2500 files, 5\.0 MB$/),
    ]);
    expect(lines.at(-1)).toMatch(/^job \S+: completed 2600\/2600: counted 2,600 files, 6\.0 MB$/);
  }, 180_000);
});
