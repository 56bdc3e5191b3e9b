/**
 * Issue 24, trap targets: how each notifies (trap or inform) and, for v3, as which USM user.
 * The same on both adapters but for the text type of the columns a list sorts on. Existing
 * targets stay v1/v2c traps; the passphrases are sealed like the community.
 */
export function snmpV3TrapTargetStatements(text: string): string[] {
  return [
    `alter table snmp_traps add column notify_type ${text} not null default 'trap'`,
    `alter table snmp_traps add column security_name ${text}`,
    `alter table snmp_traps add column security_level text`,
    `alter table snmp_traps add column auth_protocol text`,
    `alter table snmp_traps add column auth_passphrase text`,
    `alter table snmp_traps add column priv_protocol text`,
    `alter table snmp_traps add column priv_passphrase text`,
  ];
}
