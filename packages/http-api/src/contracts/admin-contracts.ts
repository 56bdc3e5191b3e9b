import {
  apiKeyCollectionSchema,
  apiKeyCreateSchema,
  apiKeyListQuerySchema,
  apiKeySchema,
  apiKeyUpdateSchema,
  apiKeyWithKeySchema,
  corsRuleCollectionSchema,
  corsRuleCreateSchema,
  corsRuleListQuerySchema,
  corsRuleSchema,
  corsRuleUpdateSchema,
  settingsSchema,
  settingsUpdateSchema,
  userCollectionSchema,
  userCreateSchema,
  userListQuerySchema,
  userSchema,
  userUpdateSchema,
} from '@dms/core';
import type { RouteContract } from './route-contract.js';
import { crudContracts, singletonContracts } from './crud-contracts.js';

/** The administration surface: server settings, API keys, users, CORS rules. */
export const adminContracts: readonly RouteContract[] = [
  ...singletonContracts({
    path: '/settings',
    tag: 'admin',
    controller: 'settings',
    noun: 'server settings (JWT mode)',
    schemas: { item: settingsSchema, update: settingsUpdateSchema },
  }),
  ...crudContracts({
    path: '/api_keys',
    param: 'api_key_id',
    tag: 'admin',
    controller: 'api_keys',
    noun: 'API key',
    query: apiKeyListQuerySchema,
    schemas: { item: apiKeySchema, created: apiKeyWithKeySchema, collection: apiKeyCollectionSchema, create: apiKeyCreateSchema, update: apiKeyUpdateSchema },
  }),
  ...crudContracts({
    path: '/users',
    param: 'user_id',
    tag: 'admin',
    controller: 'users',
    noun: 'user',
    query: userListQuerySchema,
    schemas: { item: userSchema, collection: userCollectionSchema, create: userCreateSchema, update: userUpdateSchema },
    destroyErrors: [409],
  }),
  ...crudContracts({
    path: '/cors_rules',
    param: 'cors_rule_id',
    tag: 'admin',
    controller: 'cors_rules',
    noun: 'CORS rule',
    query: corsRuleListQuerySchema,
    schemas: {
      item: corsRuleSchema,
      collection: corsRuleCollectionSchema,
      create: corsRuleCreateSchema,
      update: corsRuleUpdateSchema,
    },
  }),
];
