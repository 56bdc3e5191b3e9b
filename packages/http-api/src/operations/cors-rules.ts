import { corsRuleCollectionSchema, corsRuleCreateSchema, corsRuleListSpec, corsRuleSchema, corsRuleUpdateSchema } from '@dms/core';
import { listQueryParameters } from '../contracts/list-query-parameters.js';
import { collectionExample, corsRuleCreateExample, corsRuleExample, corsRuleUpdateExample } from '../contracts/examples.js';
import { crudOperations } from './crud-operations.js';

/** CORS rules: which browser origins may call which paths, for administrators. */
export const corsRuleOperations = crudOperations({
  path: '/cors_rules',
  param: 'cors_rule_id',
  tag: 'admin',
  controller: 'cors_rules',
  noun: 'CORS rule',
  query: listQueryParameters(corsRuleListSpec),
  schemas: {
    item: corsRuleSchema,
    collection: corsRuleCollectionSchema,
    create: corsRuleCreateSchema,
    update: corsRuleUpdateSchema,
  },
  examples: {
    item: corsRuleExample,
    collection: collectionExample('cors_rules', corsRuleExample),
    create: corsRuleCreateExample,
    update: corsRuleUpdateExample,
  },
  notes: { create: 'Admin only. `path` is a glob over request paths; the `null` origin is never allowed.' },
  service: (core) => core.corsRules,
  operations: {
    list: { operationId: 'listCorsRules', sdkSample: `const { count, cors_rules } = await dms.corsRules.list();` },
    create: {
      operationId: 'createCorsRule',
      sdkSample: `const rule = await dms.corsRules.create({
  origins: ['https://app.example.com'],
  path: '/api/v2/nas_shares*',
  methods: ['GET'],
});`,
    },
    show: { operationId: 'showCorsRule', sdkSample: `const rule = await dms.corsRules.get(1);` },
    update: { operationId: 'updateCorsRule', sdkSample: `const rule = await dms.corsRules.update(1, { methods: ['GET', 'PUT'] });` },
    destroy: { operationId: 'deleteCorsRule', sdkSample: `await dms.corsRules.delete(1);` },
  },
});
