import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { formatBytes, systemPrincipal } from '@dms/core';
import type { Dms } from '@dms/core/runtime';
import { cli } from './support/cli-run.js';
import { openForCommand, readConfig, startServer, type RunningServer } from '@dms/http-api';

/** Issue 22 (history and audit): `dms share test|scan`, `dms jobs list`, `dms audit list`. */

/** The rows of a list command's table, by the header's column names. */
function rowsOf(lines: string[]): Array<Record<string, string>> {
  const [header, ...rows] = lines.map((line) => line.split('\t'));
  return rows.map((cells) => Object.fromEntries(header!.map((name, index) => [name, cells[index] ?? ''])));
}

/** A data dir with a local NAS and its share `projects` (a directory holding one file). */
function makeDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'dms-cli-history-'));
  mkdirSync(join(dir, 'shares', 'projects'), { recursive: true });
  writeFileSync(join(dir, 'shares', 'projects', 'plan.txt'), 'twelve bytes');
  return dir;
}

async function addLocalShare(core: Dms['core']): Promise<void> {
  await core.nas.create(systemPrincipal, { name: 'local', host: 'localhost', type: 'local' });
  await core.shares.create(systemPrincipal, 'local', { name: 'projects', path: 'projects' });
}

const saved = { ...process.env };

describe('dms share, jobs and audit beside a running dms serve', () => {
  let dir: string;
  let server: RunningServer;

  beforeAll(async () => {
    dir = makeDataDir();
    delete process.env['DMS_DATABASE_URL'];
    process.env['DMS_DATA_DIR'] = dir;
    server = await startServer(readConfig({ DMS_DATA_DIR: dir, DMS_PORT: '0', DMS_ADMIN_PASSWORD: 'history-test-password', DMS_LOG_LEVEL: 'silent' }));
    await addLocalShare(server.dms.core);
  });
  afterAll(async () => {
    await server?.stop();
    process.env = { ...saved };
    rmSync(dir, { recursive: true, force: true });
  });

  it('share test --wait follows the job the server runs until it completes, exit 0, with its steps', async () => {
    const tested = await cli('share', 'test', 'projects', '--wait');
    expect(tested.code, tested.errors).toBe(0);
    const jobId = tested.lines[0]!.match(/^queued share test job (\S+) of share projects$/)![1]!;
    const outcome = tested.lines.find((line) => line.startsWith(`job ${jobId}: completed`));
    expect(outcome).toBeDefined();
    expect(tested.lines.filter((line) => line.startsWith('  ok\t')).length).toBeGreaterThan(0);
    // The job is in the history, started by the CLI's principal.
    const listed = rowsOf((await cli('jobs', 'list', '--share', 'projects', '--kind', 'share_test')).lines);
    expect(listed.find((row) => row['id'] === jobId)).toMatchObject({ kind: 'share_test', requester: 'system', status: 'completed' });
  });

  it('issue 45: shares list shows the used % and free space a test read, by share name; jobs list names the share', async () => {
    expect((await cli('share', 'test', 'projects', '--wait')).code).toBe(0);
    const share = await server.dms.core.shares.show(systemPrincipal, { kind: 'all' }, 'projects');
    expect(share.used_percent).not.toBeNull();
    const row = rowsOf((await cli('shares', 'list')).lines).find((cells) => cells['name'] === 'projects');
    expect(row).toMatchObject({ used: `${share.used_percent}%`, free: `${formatBytes(share.free_bytes!)} of ${formatBytes(share.capacity_bytes!)}` });
    const jobs = rowsOf((await cli('jobs', 'list', '--share', 'projects', '--limit', '1')).lines);
    expect(jobs[0]).toMatchObject({ share: 'projects' });
  });

  it('share scan --wait ends with the counts of the share; a share test of a missing directory exits 1', async () => {
    const scanned = await cli('share', 'scan', 'projects', '--wait', '--timeout', '30');
    expect(scanned.code, scanned.errors).toBe(0);
    expect(scanned.lines.at(-1)).toMatch(/^job \S+: completed 1\/1: counted 1 file, 12 bytes$/);

    await server.dms.core.shares.create(systemPrincipal, 'local', { name: 'ghost', path: 'missing/dir' });
    const failed = await cli('share', 'test', 'ghost', '--wait');
    expect(failed.code).toBe(1);
    expect(failed.lines.some((line) => / failed/.test(line))).toBe(true);
  });

  it('jobs list shows a job the CLI started, requester system, and filters by status, kind and requester', async () => {
    const started = await cli('share', 'scan', 'projects');
    expect(started.code).toBe(0);
    expect(started.lines[1]).toContain("a running 'dms serve' on this data dir runs it");
    const jobId = started.lines[0]!.match(/job (\S+) of share/)![1]!;

    const listed = await cli('jobs', 'list');
    expect(listed.code).toBe(0);
    expect(listed.lines[0]).toBe('id\tkind\tshare\trequester\tstatus\tprogress\tcreated\tfinished');
    const shareId = String((await server.dms.core.shares.show(systemPrincipal, { kind: 'all' }, 'projects')).id);
    expect(rowsOf(listed.lines)[0]).toMatchObject({ id: jobId, kind: 'share_scan', share: 'projects', requester: 'system' });

    expect(rowsOf((await cli('jobs', 'list', '--kind', 'share_test')).lines).every((row) => row['kind'] === 'share_test')).toBe(true);
    expect(rowsOf((await cli('jobs', 'list', '--share', shareId, '--limit', '1')).lines)).toHaveLength(1);
    expect((await cli('jobs', 'list', '--requester', 'scheduler')).lines).toEqual(['no jobs']);
    const wrong = await cli('jobs', 'list', '--status', 'running');
    expect(wrong.code).toBe(1);
    expect(wrong.errors).toContain("--status 'running' must be one of queued, working, completed, failed");
  });

  it("audit list shows the CLI's cors add as a create via cli, and --since filters", async () => {
    const before = new Date().toISOString();
    expect((await cli('cors', 'add', '--origin', 'https://audit.example', '--method', 'GET')).code).toBe(0);
    const listed = await cli('audit', 'list', '--action', 'create', '--since', before);
    expect(listed.code).toBe(0);
    expect(listed.lines[0]).toBe('at\tactor\tvia\taction\tresource\toutcome\tcount');
    const rows = rowsOf(listed.lines);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actor: 'system', via: 'cli', action: 'create', outcome: 'success', count: '1' });
    expect(rows[0]!['resource']).toMatch(/^cors_rules\/\d+/);

    // The share tests and scans the CLI queued are on record too.
    expect(rowsOf((await cli('audit', 'list', '--action', 'scan', '--actor', 'system')).lines).every((row) => row['via'] === 'cli')).toBe(true);
    // An offset is folded in: an hour ahead of UTC, an hour later on the clock.
    const inAnHour = new Date(Date.now() + 3_600_000).toISOString().slice(0, 19);
    expect((await cli('audit', 'list', '--since', `${inAnHour}Z`)).lines).toEqual(['no audit events']);
    const sameInstantElsewhere = new Date(Date.parse(before) + 3_600_000).toISOString().slice(0, 23) + '+01:00';
    expect(rowsOf((await cli('audit', 'list', '--action', 'create', '--since', sameInstantElsewhere)).lines)).toHaveLength(1);
  });

  it('refuses a --since that is not an ISO 8601 date, saying what is allowed, before opening the data dir', async () => {
    for (const since of ['yesterday', '2025-02-30', '06/01/2025']) {
      const refused = await cli('audit', 'list', '--since', since);
      expect(refused.code).toBe(1);
      // One line, the whole of stderr: the regular expression runs from its start to its end.
      expect(refused.errors).toMatch(
        /^dms: --since '.+' is not an ISO 8601 date: give a date \(2025-06-01\) or a date and time \(.*\); without an offset it is UTC\n$/,
      );
      expect(refused.errors).toContain(`'${since}'`);
    }
    expect((await cli('audit', 'list', '--action', 'created')).errors).toContain("--action 'created' must be one of create, update, delete");
  });
});

describe('dms share test --wait without a running server', () => {
  let dir: string;
  beforeEach(async () => {
    dir = makeDataDir();
    delete process.env['DMS_DATABASE_URL'];
    process.env['DMS_DATA_DIR'] = dir;
    expect((await cli('migrate')).code).toBe(0);
    const dms = await openForCommand(readConfig());
    try {
      await addLocalShare(dms.core);
    } finally {
      await dms.close();
    }
  });
  afterEach(() => {
    process.env = { ...saved };
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives up after --timeout saying no server took the job, which stays queued in jobs list', async () => {
    const waited = await cli('share', 'test', 'projects', '--wait', '--timeout', '1');
    expect(waited.code).toBe(1);
    expect(waited.lines[1]).toBe("waiting up to 1 s for a running 'dms serve' on this data dir to run it");
    const jobId = waited.lines[0]!.match(/job (\S+) of share/)![1]!;
    expect(waited.errors).toContain(`job ${jobId} is still queued after 1 s: no 'dms serve' on this data dir has taken it`);
    expect(rowsOf((await cli('jobs', 'list', '--status', 'queued')).lines)).toEqual([
      expect.objectContaining({ id: jobId, requester: 'system', status: 'queued' }),
    ]);
  });

  it('refuses a bad --timeout, --timeout without --wait, and an unknown share', async () => {
    expect((await cli('share', 'test', 'projects', '--wait', '--timeout', '0')).errors).toContain('--timeout');
    expect((await cli('share', 'test', 'projects', '--timeout', '5')).errors).toContain('give --wait too');
    const unknown = await cli('share', 'scan', 'nothing-here');
    expect(unknown.code).toBe(1);
    expect(unknown.errors).toContain('nothing-here');
    expect((await cli('share', 'frobnicate', 'projects')).code).toBe(1);
  });
});
