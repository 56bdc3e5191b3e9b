import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, postgresUnreachable, type TestDatabase } from '@dms/core/testing';
import { runCli } from './commands.js';

/** Issue 24: `dms snmp agent show|set`, on both storage adapters. */

async function cli(...argv: string[]): Promise<{ code: number; lines: string[]; errors: string }> {
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

const saved = { ...process.env };
const pgUnreachable = await postgresUnreachable();
if (pgUnreachable && process.env['CI'] === 'true') throw new Error(`CI runs the CLI suite on PostgreSQL too, but ${pgUnreachable}`);
if (pgUnreachable) console.warn(`[skip] dms snmp agent on PostgreSQL: ${pgUnreachable}`);

describe.each(['sqlite', ...(pgUnreachable ? [] : ['postgres'])])('dms snmp agent on %s', (adapter) => {
  let dir: string;
  let database: TestDatabase | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dms-cli-snmp-'));
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
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows the agent off by default, then sets it on at an address and port', async () => {
    const shown = await cli('snmp', 'agent', 'show');
    expect(shown.code, shown.errors).toBe(0);
    expect(shown.lines[0]).toBe('agent:     off (UDP 127.0.0.1:161)');
    const set = await cli('snmp', 'agent', 'set', '--on', '--address', '0.0.0.0', '--port', '1161');
    expect(set.code, set.errors).toBe(0);
    expect(set.lines[0]).toBe('agent:     on (UDP 0.0.0.0:1161)');
    const audited = await cli('audit', 'list', '--action', 'update');
    expect(audited.lines.join('\n')).toMatch(/cli\tupdate\tserver_configuration/);
  });

  it('refuses a bad port, address or flag with what is allowed', async () => {
    expect((await cli('snmp', 'agent', 'set', '--port', '70000')).errors).toContain('agent_port must be between 1 and 65535');
    expect((await cli('snmp', 'agent', 'set', '--address', 'nas.example')).errors).toContain('agent_address must be an IPv4 or IPv6 address');
    expect((await cli('snmp', 'agent', 'set', '--on', '--off')).errors).toContain('usage: dms snmp agent show');
    expect((await cli('snmp', 'agent', 'set', '--prot', '1')).errors).toContain(
      'unknown option --prot; the options are --on, --off, --address VALUE, --port VALUE',
    );
  });
});
