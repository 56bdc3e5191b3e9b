/**
 * Issue 24, the agent: where it listens and whether it runs become stored settings (null until
 * the first start seeds them from DMS_SNMP_AGENT_PORT), its v3 users (one sealed JSON document:
 * names, levels, protocols and passphrases), and the engine's persisted id and boot counter.
 * The same statements on both adapters.
 */
export function snmpV3AgentStatements(): string[] {
  return [
    'alter table snmp_server_configuration add column agent_enabled integer',
    'alter table snmp_server_configuration add column agent_address text',
    'alter table snmp_server_configuration add column agent_port integer',
    'alter table snmp_server_configuration add column users text',
    'alter table snmp_server_configuration add column engine_id text',
    'alter table snmp_server_configuration add column engine_boots integer not null default 0',
  ];
}
