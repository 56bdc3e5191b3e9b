import { snmpConfigSchema, snmpConfigUpdateSchema } from '@dms/core';
import { snmpConfigExample, snmpConfigUpdateExample } from '../contracts/examples.js';
import { singletonOperations } from './crud-operations.js';

/** The SNMP server configuration: the agent dms runs, and its SNMPv3 users. */
export const snmpConfigurationOperations = singletonOperations({
  path: '/snmp/server_configuration',
  tag: 'snmp',
  controller: 'server_configuration',
  noun: 'SNMP server configuration',
  schemas: { item: snmpConfigSchema, update: snmpConfigUpdateSchema },
  examples: { item: snmpConfigExample, update: snmpConfigUpdateExample },
  about:
    "The SNMP agent: whether it runs (`agent_enabled`) and where (`agent_address`, `agent_port`), its community version, community and system group (`location`, `contact`), its SNMPv3 users (`users`, read-only access; passphrases only with `server_configuration / get_password`) and its persisted `engine_id`. An update applies at once: a new address, port or on/off restarts or stops the agent's socket, and the engine counts a new boot.",
  service: (core) => core.snmpConfig,
  operations: {
    show: { operationId: 'showSnmpServerConfiguration', sdkSample: `const configuration = await dms.snmp.serverConfiguration.get();` },
    update: {
      operationId: 'updateSnmpServerConfiguration',
      sdkSample: `const configuration = await dms.snmp.serverConfiguration.update({
  location: 'server room 2',
});`,
    },
  },
});
