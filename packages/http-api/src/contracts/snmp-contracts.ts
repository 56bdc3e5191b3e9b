import { snmpConfigSchema, snmpConfigUpdateSchema, trapCollectionSchema, trapCreateSchema, trapListSpec, trapSchema, trapUpdateSchema } from '@dms/core';
import { listQueryParameters } from './list-query-parameters.js';
import { defineContract, type RouteContract } from './route-contract.js';
import { crudContracts, singletonContracts } from './crud-contracts.js';
import { collectionExample, snmpConfigExample, snmpConfigUpdateExample, trapCreateExample, trapExample, trapUpdateExample } from './examples.js';

/** SNMP trap targets (CRUD and a test trap) and the SNMP server configuration. */
export const snmpContracts: readonly RouteContract[] = [
  ...crudContracts({
    path: '/snmp/traps',
    param: 'snmp_trap_id',
    tag: 'snmp',
    controller: 'traps',
    noun: 'trap',
    query: listQueryParameters(trapListSpec),
    schemas: { item: trapSchema, collection: trapCollectionSchema, create: trapCreateSchema, update: trapUpdateSchema },
    examples: { item: trapExample, collection: collectionExample('traps', trapExample), create: trapCreateExample, update: trapUpdateExample },
    notes: {
      create:
        'An active target (`activation` 1) receives every event whose severity (1 info, 2 notice, 3 warning, 4 error, 5 critical) lies within [`severity_low`, `severity_high`]. `manager` is a host name, IPv4 or `[IPv6]`, with an optional `:port` (162).',
    },
  }),
  defineContract({
    method: 'post',
    path: '/snmp/traps/:snmp_trap_id/test',
    tag: 'snmp',
    summary: 'Send a test trap to this target now',
    description: 'Sends one test notification to the target, whatever its activation and severity band, and answers the target.',
    scope: { controller: 'traps', action: 'test' },
    success: { status: 202, description: 'the trap target the test trap is being sent to', schema: trapSchema, example: trapExample },
  }),
  ...singletonContracts({
    path: '/snmp/server_configuration',
    tag: 'snmp',
    controller: 'server_configuration',
    noun: 'SNMP server configuration',
    schemas: { item: snmpConfigSchema, update: snmpConfigUpdateSchema },
    examples: { item: snmpConfigExample, update: snmpConfigUpdateExample },
    about:
      "The SNMP agent: whether it runs (`agent_enabled`) and where (`agent_address`, `agent_port`), its community version, community and system group (`location`, `contact`), its SNMPv3 users (`users`, read-only access; passphrases only with `server_configuration / get_password`) and its persisted `engine_id`. An update applies at once: a new address, port or on/off restarts or stops the agent's socket, and the engine counts a new boot.",
  }),
];
