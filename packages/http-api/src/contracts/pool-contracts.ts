import { poolCollectionSchema, poolCreateSchema, poolListSpec, poolSchema, poolUpdateSchema } from '@dms/core';
import { listQueryParameters } from './list-query-parameters.js';
import type { RouteContract } from './route-contract.js';
import { crudContracts } from './crud-contracts.js';
import { collectionExample, poolCreateExample, poolExample, poolUpdateExample } from './examples.js';

/** Pools of NAS shares (docs/api.md#nas, docs/api.md#pools). */
export const poolContracts: readonly RouteContract[] = crudContracts({
  path: '/pools',
  param: 'pool_id',
  tag: 'pools',
  controller: 'pools',
  noun: 'pool',
  query: listQueryParameters(poolListSpec),
  schemas: {
    item: poolSchema,
    collection: poolCollectionSchema,
    create: poolCreateSchema,
    update: poolUpdateSchema,
  },
  examples: { item: poolExample, collection: collectionExample('pools', poolExample), create: poolCreateExample, update: poolUpdateExample },
  notes: {
    update: '`nas_share_ids` sets the shares of the pool (a pool whose `content` is `nas` only); a share is in at most one pool.',
  },
});
