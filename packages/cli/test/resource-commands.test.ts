import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { systemPrincipal } from '@dms/core';
import { readConfig } from '@dms/http-api';
import { openForCommand } from '@dms/http-api';
import { cli, cliAdapters, migratedDataDir } from './support/cli-run.js';

/** Issue 25 item 5: `dms --version`, `dms nas list|add`, `dms shares list|add`, on both storage adapters. */

const cliMain = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const packageVersion = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** The rows of a list command's table, by the header's column names. */
function rowsOf(lines: string[]): Array<Record<string, string>> {
  const [header, ...rows] = lines.map((line) => line.split('\t'));
  return rows.map((cells) => Object.fromEntries(header!.map((name, index) => [name, cells[index] ?? ''])));
}

/** The dms command as a process, with `input` on its stdin (a pipe, not a terminal). */
function dmsProcess(args: string[], input: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, ['--conditions=source', '--import', 'tsx', cliMain, ...args], { env: process.env }, (error, stdout, stderr) =>
      resolve({ code: error ? (error.code as number) : 0, stdout, stderr }),
    );
    child.stdin!.end(input);
  });
}

const adapters = await cliAdapters('dms nas and dms shares');

it('dms --version and dms version print the version of package.json, as GET /api/v2 says it', async () => {
  expect(packageVersion).toMatch(/^\d+\.\d+\.\d+/);
  expect(await cli('--version')).toEqual({ code: 0, lines: [`dms ${packageVersion}`], errors: '' });
  expect((await cli('version')).lines).toEqual([`dms ${packageVersion}`]);
});

describe.each(adapters)('dms nas and dms shares on %s', (adapter) => {
  migratedDataDir(adapter, {
    prefix: 'dms-cli-resources-',
    prepare: (dir) => {
      mkdirSync(join(dir, 'shares', 'projects'), { recursive: true });
      writeFileSync(join(dir, 'shares', 'projects', 'plan.txt'), 'twelve bytes');
    },
  });

  it('nas add adds a NAS as the CLI (audited via cli); nas list shows it in a table', async () => {
    expect(await cli('nas', 'list')).toEqual({ code: 0, lines: ['no NAS'], errors: '' });
    const added = await cli('nas', 'add', 'filer', '--host', '192.0.2.7', '--type', 'smb_v3', '--comment', 'rack 2', '--price', '12.50');
    expect(added.code, added.errors).toBe(0);
    expect(added.lines).toEqual([expect.stringMatching(/^added NAS \d+ 'filer' \(smb_v3 at 192\.0\.2\.7\)$/)]);
    expect((await cli('nas', 'add', 'here', '--host', 'localhost', '--type', 'local')).code).toBe(0);
    const listed = await cli('nas', 'list');
    expect(listed.lines[0]).toBe('id\tname\thost\ttype\tcomment\tprice');
    expect(rowsOf(listed.lines)).toEqual([
      expect.objectContaining({ name: 'filer', host: '192.0.2.7', type: 'smb_v3', comment: 'rack 2', price: '12.50' }),
      expect.objectContaining({ name: 'here', host: 'localhost', type: 'local', comment: '-', price: '-' }),
    ]);
    const audited = rowsOf((await cli('audit', 'list', '--action', 'create')).lines).filter((row) => row['resource']!.startsWith('nas/'));
    expect(audited.map((row) => [row['resource'], row['via'], row['actor']])).toContainEqual([expect.stringContaining("'filer'"), 'cli', 'system']);
  });

  it('refuses bad input with what is allowed: a NAS type, an unknown option, a taken name, a share health', async () => {
    const type = await cli('nas', 'add', 'other', '--host', 'h.example', '--type', 'smb4');
    expect(type.code).toBe(1);
    expect(type.errors).toContain('type must be one of smb_v1, smb_v2_1, smb_v3, nfs_v3, nfs_v4, storenext_v5, local');
    const option = await cli('nas', 'add', 'other', '--hots', 'h.example');
    expect(option.code).toBe(1);
    expect(option.errors).toContain('unknown option --hots; the options are --host VALUE, --type VALUE, --comment VALUE, --price VALUE');
    const missing = await cli('nas', 'add', 'other', '--type', 'local');
    expect(missing.errors).toContain("host can't be blank");
    expect((await cli('nas', 'add', 'filer', '--host', 'h.example', '--type', 'local')).errors).toMatch(/name.*taken/);
    expect((await cli('shares', 'list', '--health', 'good')).errors).toContain("--health 'good' must be one of ok, unreachable, unknown");
    expect((await cli('shares', 'add', 'here', 'x', '--path', 'projects', '--password', 'secret')).errors).toContain('unknown option --password');
    expect((await cli('shares', 'list', '--limit', '500')).errors).toMatch(/limit/);
    expect((await cli('nas', 'remove', 'filer')).code).toBe(1);
    // Nothing of it was stored.
    expect(rowsOf((await cli('nas', 'list')).lines).map((row) => row['name'])).toEqual(['filer', 'here']);
  });

  it('shares add adds a share to a NAS by name, its password asked with --ask-password (stdin when piped); shares list shows it with its NAS and pool', async () => {
    const added = await cli('shares', 'add', 'here', 'projects', '--path', 'projects', '--options', 'ro');
    expect(added.code, added.errors).toBe(0);
    expect(added.lines[0]).toMatch(/^added share \d+ 'projects' on NAS here \(path projects\)$/);

    const piped = await dmsProcess(['shares', 'add', 'filer', 'finance', '--path', '/finance', '--username', 'svc', '--ask-password'], 'share-secret-1\n');
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).toMatch(/added share \d+ 'finance' on NAS filer \(path \/finance, user svc\)/);
    const dms = await openForCommand(readConfig());
    try {
      const stored = await dms.core.shares.show(systemPrincipal, { kind: 'nas', nasRef: 'filer' }, 'finance');
      expect(stored.password).toBe('share-secret-1');
      await dms.core.pools.create(systemPrincipal, { name: 'hot', type: 'primary', content: 'nas' });
      await dms.core.pools.update(systemPrincipal, 'hot', { nas_share_ids: [stored.id] });
    } finally {
      await dms.close();
    }

    const listed = await cli('shares', 'list');
    expect(listed.lines[0]).toBe('id\tname\tnas\tpool\tpath\thealth\tfiles\tsize\tused\tfree\tlast scanned');
    expect(rowsOf(listed.lines)).toEqual([
      expect.objectContaining({
        name: 'projects',
        nas: 'here',
        pool: '-',
        path: 'projects',
        health: 'unknown',
        files: '-',
        size: '-',
        used: '-',
        free: '-',
        'last scanned': '-',
      }),
      expect.objectContaining({ name: 'finance', nas: 'filer', pool: 'hot', path: '/finance', health: 'unknown' }),
    ]);
    // The password is in no column.
    expect(listed.lines.join('\n')).not.toContain('share-secret-1');
    expect(rowsOf((await cli('shares', 'list', '--nas', 'here')).lines).map((row) => row['name'])).toEqual(['projects']);
    expect(rowsOf((await cli('shares', 'list', '--pool', 'hot')).lines).map((row) => row['name'])).toEqual(['finance']);
    expect(rowsOf((await cli('shares', 'list', '--health', 'unknown', '--limit', '1', '--offset', '1')).lines).map((row) => row['name'])).toEqual(['finance']);
    expect((await cli('shares', 'list', '--limit', '1')).errors).toContain('shares 1 to 1 of 2; --limit N shows up to 100, --offset N skips the first N');
    expect((await cli('shares', 'list', '--nas', 'nowhere')).code).toBe(1);
  });

  it('shares add refuses a local path outside the share roots, and a share path the core refuses, saying why', async () => {
    const outside = await cli('shares', 'add', 'here', 'etc', '--path', '/etc');
    expect(outside.code).toBe(1);
    expect(outside.errors).toContain('outside the local share roots');
    const options = await cli('shares', 'add', 'here', 'spaced', '--path', 'projects', '--options', 'a b');
    expect(options.errors).toContain('options must be comma-separated key or key=value options');
  });
});
