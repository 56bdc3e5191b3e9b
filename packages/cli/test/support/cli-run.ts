import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, vi } from 'vitest';
import { createTestDatabase, postgresUnreachable, type TestDatabase } from '@dms/core/testing';
import { runCli } from '../../src/commands.js';

/** The dms CLI run in-process: its exit code, its output lines and its stderr (less the data-dir notice every command prints). */
export async function cli(...argv: string[]): Promise<{ code: number; lines: string[]; errors: string }> {
  const lines: string[] = [];
  const errors: string[] = [];
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    errors.push(String(chunk));
    return true;
  });
  try {
    const code = await runCli(argv, (line) => lines.push(line));
    return { code, lines, errors: errors.filter((line) => !line.startsWith('dms: data dir')).join('') };
  } finally {
    spy.mockRestore();
  }
}

export type CliAdapter = 'sqlite' | 'postgres';

/** The adapters a CLI suite runs on: PostgreSQL too when it answers; on CI it must, so its absence fails there. */
export async function cliAdapters(suite: string): Promise<CliAdapter[]> {
  const pgUnreachable = await postgresUnreachable();
  if (pgUnreachable && process.env['CI'] === 'true') throw new Error(`CI runs the CLI suite on PostgreSQL too, but ${pgUnreachable}`);
  if (pgUnreachable) console.warn(`[skip] ${suite} on PostgreSQL: ${pgUnreachable}`);
  return ['sqlite', ...(pgUnreachable ? [] : (['postgres'] as const))];
}

/**
 * For the describe it is called in: a fresh data dir (and, on PostgreSQL, a fresh database) that the CLI
 * uses through its environment, migrated by `dms migrate` before the tests; after them the environment
 * is as it was and both are gone. `prepare` fills the data dir before the migration.
 */
export function migratedDataDir(adapter: CliAdapter, options: { prefix: string; prepare?: (dir: string) => void }): void {
  const saved = { ...process.env };
  let dir: string | undefined;
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), options.prefix));
    options.prepare?.(dir);
    process.env['DMS_DATA_DIR'] = dir;
    delete process.env['DMS_DATABASE_URL'];
    if (adapter === 'postgres') {
      database = await createTestDatabase();
      process.env['DMS_DATABASE_URL'] = database.url;
    }
    expect((await cli('migrate')).code).toBe(0);
  });
  afterAll(async () => {
    process.env = { ...saved };
    await database?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
}
