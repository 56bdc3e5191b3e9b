import { respondJson } from '../http/respond.js';
import { z } from 'zod';
import {
  nasCreateSchema,
  nasSchema,
  nasUpdateSchema,
  poolCreateSchema,
  poolSchema,
  poolUpdateSchema,
  snmpConfigSchema,
  snmpConfigUpdateSchema,
  trapCollectionSchema,
  trapCreateSchema,
  trapSchema,
  trapUpdateSchema,
  type Core,
} from '@dms/core';
import type { RouteTable } from '../http/route-table.js';
import { registerCrudRoutes, registerSingletonRoutes } from './crud-routes.js';

/** NAS and pools (DESIGN §5.1), SNMP traps (endpoints 16–20) and the SNMP configuration (21–22). */
export function registerResourceRoutes(routes: RouteTable, core: Core): void {
  registerCrudRoutes(
    routes,
    {
      path: '/nas',
      param: 'nas_id',
      tag: 'nas',
      controller: 'nas',
      noun: 'NAS',
      filters: ['id', 'name', 'host', 'type', 'comment'],
      schemas: { item: nasSchema, collection: z.object({ count: z.number().int(), nas: z.array(nasSchema) }), create: nasCreateSchema, update: nasUpdateSchema },
      destroyErrors: [409],
    },
    core.nas,
  );
  registerCrudRoutes(
    routes,
    {
      path: '/pools',
      param: 'pool_id',
      tag: 'pools',
      controller: 'pools',
      noun: 'pool',
      filters: ['id', 'name', 'type', 'content', 'comment'],
      schemas: { item: poolSchema, collection: z.object({ count: z.number().int(), pools: z.array(poolSchema) }), create: poolCreateSchema, update: poolUpdateSchema },
    },
    core.pools,
  );
  registerCrudRoutes(
    routes,
    {
      path: '/snmp/traps',
      param: 'snmp_trap_id',
      tag: 'snmp',
      controller: 'traps',
      noun: 'trap',
      filters: ['snmp_trap_id', 'activation', 'version', 'manager', 'severity_low', 'severity_high'],
      schemas: { item: trapSchema, collection: trapCollectionSchema, create: trapCreateSchema, update: trapUpdateSchema },
    },
    core.traps,
  );
  routes.add({
    method: 'post',
    path: '/snmp/traps/:snmp_trap_id/test',
    tag: 'snmp',
    summary: 'Send a test trap to this target now',
    scope: 'traps / test',
    success: { status: 202, description: 'the trap target the test trap is being sent to', schema: trapSchema },
    errors: [404],
    handler: async (c) => respondJson(c, await core.traps.test(c.get('principal'), c.req.param('snmp_trap_id')!), 202),
  });
  registerSingletonRoutes(
    routes,
    { path: '/snmp/server_configuration', tag: 'snmp', controller: 'server_configuration', noun: 'SNMP server configuration', schemas: { item: snmpConfigSchema, update: snmpConfigUpdateSchema } },
    core.snmpConfig,
  );
}
