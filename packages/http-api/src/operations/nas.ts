import { nasCollectionSchema, nasCreateSchema, nasListSpec, nasSchema, nasUpdateSchema } from '@dms/core';
import { listQueryParameters } from '../contracts/list-query-parameters.js';
import { crudOperations } from './crud-operations.js';
import { collectionExample, nasCreateExample, nasExample, nasUpdateExample } from '../contracts/examples.js';

/** NAS devices (docs/api.md#nas, docs/api.md#pools); one that still has shares cannot be deleted (409). */
export const nasOperations = crudOperations({
  path: '/nas',
  param: 'nas_id',
  tag: 'nas',
  controller: 'nas',
  noun: 'NAS',
  query: listQueryParameters(nasListSpec),
  schemas: {
    item: nasSchema,
    collection: nasCollectionSchema,
    create: nasCreateSchema,
    update: nasUpdateSchema,
  },
  destroyErrors: [409],
  examples: { item: nasExample, collection: collectionExample('nas', nasExample), create: nasCreateExample, update: nasUpdateExample },
  notes: {
    create:
      '`type` says how its shares are reached: `smb_v1`, `smb_v2_1`, `smb_v3`, `nfs_v3`, `nfs_v4`, `storenext_v5`, or `local` (a directory on the server). A `host` outside `share_test_allowed_hosts` (see the settings) is 422 on `host`, but for a `local` NAS.',
    update:
      'Changing `host` or `type` without `nas_shares / get_password` forgets the stored passwords of its shares. Moving the NAS to a host outside `share_test_allowed_hosts` is 422 on `host`; an edit that does not move it is not refused.',
    destroy: 'A NAS that still has shares is 409.',
  },
  service: (core) => core.nas,
  operations: {
    list: {
      operationId: 'listNas',
      sdkSample: `const { count, nas } = await dms.nas.list({
  filter: { type: ne('local') },
  sortBy: ['name'],
});`,
    },
    create: {
      operationId: 'createNas',
      sdkSample: `const nas = await dms.nas.create({
  name: 'nas1',
  host: 'nas1.example.com',
  type: 'smb_v3',
});`,
    },
    show: { operationId: 'showNas', sdkSample: `const nas = await dms.nas.get('nas1');` },
    update: { operationId: 'updateNas', sdkSample: `const nas = await dms.nas.update('nas1', { comment: 'moved to the second floor' });` },
    destroy: { operationId: 'deleteNas', sdkSample: `await dms.nas.delete('nas1');` },
  },
});
