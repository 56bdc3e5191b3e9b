import { trapCollectionSchema, trapCreateSchema, trapListSpec, trapSchema, trapUpdateSchema } from '@dms/core';
import { respondJson } from '../http/respond.js';
import { listQueryParameters } from '../contracts/list-query-parameters.js';
import { collectionExample, trapCreateExample, trapExample, trapUpdateExample } from '../contracts/examples.js';
import { defineOperation } from './operation.js';
import { crudOperations } from './crud-operations.js';

/** SNMP trap targets: CRUD, and a test trap sent to one now. */
export const trapOperations = [
  ...crudOperations({
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
    service: (core) => core.traps,
    operations: {
      list: { operationId: 'listSnmpTraps', sdkSample: `const { count, traps } = await dms.snmp.traps.list({ filter: { activation: eq(1) } });` },
      create: {
        operationId: 'createSnmpTrap',
        sdkSample: `const trap = await dms.snmp.traps.create({
  manager: 'nms.example.com:162',
  severity_low: 3,
});`,
      },
      show: { operationId: 'showSnmpTrap', sdkSample: `const trap = await dms.snmp.traps.get(3);` },
      update: { operationId: 'updateSnmpTrap', sdkSample: `const trap = await dms.snmp.traps.update(3, { activation: 0 });` },
      destroy: { operationId: 'deleteSnmpTrap', sdkSample: `await dms.snmp.traps.delete(3);` },
    },
  }),
  defineOperation({
    operationId: 'testSnmpTrap',
    sdkSample: `const trap = await dms.snmp.traps.test(3);`,
    handle: async (c, core) => respondJson(c, await core.traps.test(c.get('principal'), c.req.param('snmp_trap_id')!), 202),
    method: 'post',
    path: '/snmp/traps/:snmp_trap_id/test',
    tag: 'snmp',
    summary: 'Send a test trap to this target now',
    description: 'Sends one test notification to the target, whatever its activation and severity band, and answers the target.',
    scope: { controller: 'traps', action: 'test' },
    success: { status: 202, description: 'the trap target the test trap is being sent to', schema: trapSchema, example: trapExample },
  }),
];
