import { describe, expect, it } from 'vitest';
import { cli, cliAdapters, migratedDataDir } from './support/cli-run.js';

/** Issue 24: `dms snmp agent show|set`, on both storage adapters. */

describe.each(await cliAdapters('dms snmp agent'))('dms snmp agent on %s', (adapter) => {
  migratedDataDir(adapter, { prefix: 'dms-cli-snmp-' });

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
