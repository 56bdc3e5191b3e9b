import type { SnmpConfigView } from '@dms/core';
import { CliError } from './cli-error.js';
import { cliPrincipal } from './cli-principal.js';
import { withDms, type Output } from './with-dms.js';

export const snmpUsage = `usage: dms snmp agent show
       dms snmp agent set [--on | --off] [--address IP] [--port N]`;

function describe(config: SnmpConfigView, out: Output): void {
  out(`agent:     ${config.agent_enabled ? 'on' : 'off'} (UDP ${config.agent_address}:${config.agent_port})`);
  out(`version:   ${config.version}${config.users.length > 0 ? ' and v3' : ''}`);
  out(`v3 users:  ${config.users.length === 0 ? 'none' : config.users.map((user) => `${user.security_name} (${user.security_level})`).join(', ')}`);
  out(`engine id: ${config.engine_id ?? 'not generated yet (first start of the service)'}`);
  for (const message of config.messages ?? []) out(`note: ${message}`);
}

/**
 * `dms snmp agent show|set`: the agent's place and state, as GET and PUT
 * /snmp/server_configuration. A running service applies a change within seconds.
 */
export async function snmpAgentShow(out: Output): Promise<number> {
  describe(await withDms((dms) => dms.core.snmpConfig.show(cliPrincipal)), out);
  return 0;
}

export async function snmpAgentSet(values: { on?: boolean; off?: boolean; address?: string; port?: string }, out: Output): Promise<number> {
  if (values.on && values.off) throw new CliError(snmpUsage);
  const body: Record<string, unknown> = {};
  if (values.on || values.off) body['agent_enabled'] = values.on === true;
  if (values.address !== undefined) body['agent_address'] = values.address;
  // a number when it reads as one, so the core's message names the real range
  if (values.port !== undefined) body['agent_port'] = /^\d+$/.test(values.port) ? Number(values.port) : values.port;
  if (Object.keys(body).length === 0) throw new CliError(`nothing to set\n${snmpUsage}`);
  describe(await withDms((dms) => dms.core.snmpConfig.update(cliPrincipal, body)), out);
  return 0;
}
