import { apiKeyCollectionSchema, apiKeyCreateSchema, apiKeyListSpec, apiKeySchema, apiKeyUpdateSchema, apiKeyWithKeySchema } from '@dms/core';
import { listQueryParameters } from '../contracts/list-query-parameters.js';
import { apiKeyCreateExample, apiKeyExample, apiKeyUpdateExample, apiKeyWithKeyExample, collectionExample } from '../contracts/examples.js';
import { crudOperations } from './crud-operations.js';

/** API keys: a user's, or a key's sub-keys (`GET /api_keys/current` is in auth.ts). */
export const apiKeyOperations = crudOperations({
  path: '/api_keys',
  param: 'api_key_id',
  tag: 'admin',
  controller: 'api_keys',
  noun: 'API key',
  query: listQueryParameters(apiKeyListSpec),
  schemas: { item: apiKeySchema, created: apiKeyWithKeySchema, collection: apiKeyCollectionSchema, create: apiKeyCreateSchema, update: apiKeyUpdateSchema },
  examples: {
    item: apiKeyExample,
    created: apiKeyWithKeyExample,
    collection: collectionExample('api_keys', apiKeyExample),
    create: apiKeyCreateExample,
    update: apiKeyUpdateExample,
  },
  notes: {
    list: 'Non-admins see their own keys only.',
    create: 'The answer holds `key`, the key itself, this once only. A key never grants more than its creator may do.',
  },
  service: (core) => core.apiKeys,
  operations: {
    list: { operationId: 'listApiKeys', sdkSample: `const { count, api_keys } = await dms.apiKeys.list();` },
    create: {
      operationId: 'createApiKey',
      sdkSample: `const { key } = await dms.apiKeys.create({
  name: 'backup',
  api_key_scopes: [{ controller: 'nas_shares', action: 'index' }],
});`,
    },
    show: { operationId: 'showApiKey', sdkSample: `const apiKey = await dms.apiKeys.get(4);` },
    update: {
      operationId: 'updateApiKey',
      sdkSample: `const apiKey = await dms.apiKeys.update(4, {
  expires_at: '2027-01-01T00:00:00.000Z',
});`,
    },
    destroy: { operationId: 'deleteApiKey', sdkSample: `await dms.apiKeys.delete(4);` },
  },
});
