export { NetSnmpTrapSender, type NetSnmpTrapSenderOptions } from './snmp-trap-sender.js';
export { NetSnmpAgent, type NetSnmpAgentOptions } from './snmp-agent.js';
export { loadMibPath, standardMibPath, mibSearchPath } from './mib-path.js';
export { checkEnterpriseOid, notificationOid, eventObjectOid, agentObjectOid, systemOids } from './dms-mib.js';
export { formatResource } from './event-varbinds.js';
