import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { passwordCredential } from '@dms/core/runtime';
import { runCli } from '../src/commands.js';
import { readConfig } from '@dms/http-api';
import { openForCommand } from '@dms/http-api';

let dir: string;
const cliMain = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const saved = { ...process.env };

async function cli(...argv: string[]): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await runCli(argv, (line) => lines.push(line));
  return { code, lines };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'dms-cli-'));
  process.env['DMS_DATA_DIR'] = dir;
});
afterAll(() => {
  process.env = saved;
  rmSync(dir, { recursive: true, force: true });
});

describe('dms CLI', () => {
  it('migrates, then creates an API key printed once on the last line, lists it masked and revokes it', async () => {
    expect((await cli('migrate')).code).toBe(0);
    const created = await cli('apikey', 'create', '--name', 'backup', '--scope', 'nas_shares/index', '--scope', 'nas_shares/show');
    expect(created.code).toBe(0);
    const key = created.lines.at(-1)!;
    expect(key).toMatch(/^dms_[A-Za-z0-9_-]{43}$/);

    const runtime = await openForCommand(readConfig());
    try {
      const principal = await runtime.core.auth.authenticate({ kind: 'bearer', token: key });
      expect(principal).toMatchObject({
        kind: 'api_key',
        scopes: [
          { controller: 'nas_shares', action: 'index' },
          { controller: 'nas_shares', action: 'show' },
        ],
      });
    } finally {
      await runtime.close();
    }

    const listed = await cli('apikey', 'list');
    expect(listed.lines.join('\n')).toContain(`dms_…${key.slice(-4)}`);
    expect(listed.lines.join('\n')).not.toContain(key);
    expect(listed.lines[0]).toBe('id\tname\tkey\tscopes\tlast used');
    const id = listed.lines[1]!.split('\t')[0]!;
    expect((await cli('apikey', 'revoke', id)).code).toBe(0);
    expect((await cli('apikey', 'list')).lines).toEqual(['no API keys']);
    expect((await cli('apikey', 'revoke', id)).code).toBe(1);
  });

  it('issue 46: creates a key with a role instead of scopes, refuses both or neither; gives a user a role', async () => {
    const created = await cli('apikey', 'create', '--name', 'dashboard', '--role', 'viewer');
    expect(created.code).toBe(0);
    expect(created.lines[0]).toContain('with role viewer, scopes nas / index');
    expect((await cli('apikey', 'create', '--name', 'x', '--role', 'viewer', '--scope', 'nas/index')).code).toBe(1);
    expect((await cli('apikey', 'create', '--name', 'x')).code).toBe(1);
    expect((await cli('apikey', 'create', '--name', 'x', '--role', 'ghost')).code).toBe(1);
    const listed = await cli('apikey', 'list');
    expect(listed.lines.find((line) => line.includes('\tdashboard\t'))).toContain('role viewer: nas / index');
    const runtime = await openForCommand(readConfig());
    try {
      await runtime.core.users.add({ username: 'erin', password: 'erin-password-1' });
    } finally {
      await runtime.close();
    }
    const changed = await cli('user', 'role', 'erin', 'auditor');
    expect(changed.lines.join()).toContain('erin now has the role auditor');
    expect((await cli('user', 'list')).lines.some((line) => /\terin\tauditor\tno\t/.test(line))).toBe(true);
    expect((await cli('user', 'role', 'erin', 'ghost')).code).toBe(1);
    expect((await cli('apikey', 'revoke', listed.lines.find((line) => line.includes('\tdashboard\t'))!.split('\t')[0]!)).code).toBe(0);
  });

  it('refuses a malformed scope and a missing name with exit code 1', async () => {
    expect((await cli('apikey', 'create', '--name', 'x', '--scope', 'nas_shares')).code).toBe(1);
    expect((await cli('apikey', 'create', '--scope', 'nas_shares/show')).code).toBe(1);
    expect((await cli('frobnicate')).code).toBe(1);
  });

  it('finding 20.7: refuses a scope the scope catalogue does not name, saying what is allowed and the closest, before opening the data dir', async () => {
    const errors: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      errors.push(String(chunk));
      return true;
    });
    try {
      expect((await cli('apikey', 'create', '--name', 'x', '--scope', 'nas_share/index')).code).toBe(1);
      expect((await cli('apikey', 'create', '--name', 'x', '--scope', 'nas_shares/indx')).code).toBe(1);
      expect((await cli('apikey', 'create', '--name', 'x', '--scope', '*/*', '--scope', '*/get_password', '--scope', 'nas_shares/*')).code).toBe(0);
    } finally {
      spy.mockRestore();
    }
    expect(errors[0]).toMatch(/^dms: --scope 'nas_share\/index': controller must be \* or one of nas, pools, nas_shares, .*; did you mean 'nas_shares'\?\n$/);
    expect(errors[1]).toMatch(/^dms: --scope 'nas_shares\/indx': action must be \* or an action of nas_shares: index, show, .*; did you mean 'index'\?\n$/);
    // The refusals came before the data dir was opened (which prints its path).
    expect(errors.filter((line) => line.startsWith('dms: data dir'))).toHaveLength(1);
  });

  it('adds, lists and removes CORS rules and switches JWT mode', async () => {
    const added = await cli('cors', 'add', '--origin', 'https://app.example.com', '--path', '/api/v2/nas_shares*', '--method', 'GET,PUT');
    expect(added.code).toBe(0);
    const listed = await cli('cors', 'list');
    expect(listed.lines[1]).toMatch(/https:\/\/app\.example\.com\t\/api\/v2\/nas_shares\*\tGET,PUT$/);
    expect((await cli('cors', 'rm', listed.lines[1]!.split('\t')[0]!)).code).toBe(0);
    expect((await cli('cors', 'list')).lines).toEqual(['no CORS rules']);
    // The REST field names work too, with comma-separated values.
    const rest = await cli('cors', 'add', '--origins', 'https://a.example,https://b.example', '--methods', 'get,delete');
    expect(rest.lines.join()).toContain('https://a.example https://b.example * GET,DELETE');
    expect((await cli('cors', 'rm', rest.lines.join().match(/rule (\d+)/)![1]!)).code).toBe(0);
    expect((await cli('jwt', 'enable', '--ttl', '600')).lines.join()).toContain('enabled (token lifetime 600 s)');
    expect((await cli('jwt', 'disable')).lines.join()).toContain('disabled');
  });

  it('adds an admin and changes its password from stdin, as the dms command; lists users', async () => {
    const dms = (args: string[], input: string) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = execFile(process.execPath, ['--conditions=source', '--import', 'tsx', cliMain, ...args], { env: process.env }, (error, stdout, stderr) =>
          resolve({ code: error ? (error.code as number) : 0, stdout, stderr }),
        );
        child.stdin!.end(input);
      });
    const added = await dms(['user', 'add', 'carol', '--admin'], 'carol-first-password\n');
    expect(added.stdout).toContain('added user carol');
    expect(added.stdout).toContain('admin');
    expect(added.stderr).toContain(`data dir ${dir}`);
    const changed = await dms(['user', 'passwd', 'carol'], 'carol-second-password\n');
    expect(changed.code, changed.stderr).toBe(0);
    const runtime = await openForCommand(readConfig());
    try {
      const basic = (password: string) => passwordCredential('carol', password);
      expect(await runtime.core.auth.authenticate(basic('carol-second-password'))).toMatchObject({ kind: 'user', username: 'carol', admin: true });
      await expect((async () => runtime.core.auth.authenticate(basic('carol-first-password')))()).rejects.toMatchObject({ code: 'unauthenticated' });
    } finally {
      await runtime.close();
    }
    const listed = await cli('user', 'list');
    expect(listed.lines[0]).toBe('id\tusername\trole\tadmin\tcreated');
    expect(listed.lines.some((line) => /\tcarol\tadmin\tyes\t/.test(line))).toBe(true);
  });

  it('a command other than serve or migrate refuses to create a database where none is', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'dms-cli-empty-'));
    process.env['DMS_DATA_DIR'] = empty;
    try {
      expect((await cli('apikey', 'list')).code).toBe(1);
      expect(existsSync(join(empty, 'dms.sqlite'))).toBe(false);
      expect(existsSync(join(empty, 'secret.key'))).toBe(false);
    } finally {
      process.env['DMS_DATA_DIR'] = dir;
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
