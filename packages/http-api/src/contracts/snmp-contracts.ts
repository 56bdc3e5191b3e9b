import {
  snmpConfigSchema,
  snmpConfigUpdateSchema,
  trapCollectionSchema,
  trapCreateSchema,
  trapListQuerySchema,
  trapSchema,
  trapUpdateSchema,
} from '@dms/core';
import { defineContract, type RouteContract } from './route-contract.js';
import { crudContracts, singletonContracts } from './crud-contracts.js';

/** SNMP trap targets (spec endpoints 16–20, and a test trap) and the SNMP server configuration (21–22). */
export const snmpContracts: readonly RouteContract[] = [
  ...crudContracts({
    path: '/snmp/traps',
    param: 'snmp_trap_id',
    tag: 'snmp',
    controller: 'traps',
    noun: 'trap',
    query: trapListQuerySchema,
    schemas: { item: trapSchema, collection: trapCollectionSchema, create: trapCreateSchema, update: trapUpdateSchema },
  }),
  defineContract({
    method: 'post',
    path: '/snmp/traps/:snmp_trap_id/test',
    tag: 'snmp',
    summary: 'Send a test trap to this target now',
    scope: { controller: 'traps', action: 'test' },
    success: { status: 202, description: 'the trap target the test trap is being sent to', schema: trapSchema },
    errors: [404],
  }),
  ...singletonContracts({
    path: '/snmp/server_configuration',
    tag: 'snmp',
    controller: 'server_configuration',
    noun: 'SNMP server configuration',
    schemas: { item: snmpConfigSchema, update: snmpConfigUpdateSchema },
  }),
];
