import { poolCollectionSchema, poolCreateSchema, poolListSpec, poolSchema, poolUpdateSchema } from '@dms/core';
import { listQueryParameters } from '../contracts/list-query-parameters.js';
import { respondEmpty } from '../http/respond.js';
import { crudOperations } from './crud-operations.js';
import { collectionExample, poolCreateExample, poolExample, poolUpdateExample } from '../contracts/examples.js';

/**
 * On DELETE /pools/{id}: how many shares the pool held, now in no pool. The answer stays 204
 * without a body (as every delete); a client that wants to say what happened reads this.
 */
export const releasedSharesHeader = 'Dms-Released-Shares';

/** Pools of NAS shares (docs/api.md#nas, docs/api.md#pools). */
export const poolOperations = crudOperations({
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
  service: (core) => core.pools,
  operations: {
    list: { operationId: 'listPools', sdkSample: `const { count, pools } = await dms.pools.list({ filter: { content: eq('nas') } });` },
    create: { operationId: 'createPool', sdkSample: `const pool = await dms.pools.create({ name: 'projects', content: 'nas' });` },
    show: { operationId: 'showPool', sdkSample: `const pool = await dms.pools.get('projects');` },
    update: {
      operationId: 'updatePool',
      sdkSample: `const pool = await dms.pools.update('projects', { comment: 'active projects' });
await dms.pools.setShares('projects', [7, 8]);`,
    },
    destroy: {
      operationId: 'deletePool',
      sdkSample: `await dms.pools.delete('projects');`,
      handle: async (c, core) => {
        const { released_nas_share_ids: released } = await core.pools.destroy(c.get('principal'), c.req.param('pool_id')!);
        return respondEmpty(c, 204, { [releasedSharesHeader]: String(released.length) });
      },
    },
  },
});
