import { nasCollectionSchema, nasCreateSchema, nasListQuerySchema, nasSchema, nasUpdateSchema } from '@dms/core';
import type { RouteContract } from './route-contract.js';
import { crudContracts } from './crud-contracts.js';

/** NAS devices (DESIGN §5.1); one that still has shares cannot be deleted (409). */
export const nasContracts: readonly RouteContract[] = crudContracts({
  path: '/nas',
  param: 'nas_id',
  tag: 'nas',
  controller: 'nas',
  noun: 'NAS',
  query: nasListQuerySchema,
  schemas: {
    item: nasSchema,
    collection: nasCollectionSchema,
    create: nasCreateSchema,
    update: nasUpdateSchema,
  },
  destroyErrors: [409],
});
