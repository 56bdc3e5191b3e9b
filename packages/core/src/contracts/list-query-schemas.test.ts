import { describe, expect, it } from 'vitest';
import { apiKeyListSpec, nasListSpec, poolListSpec, shareListSpecs, trapListSpec, userListSpec } from '../list-query/list-specs.js';
import {
  apiKeyListQuerySchema,
  nasListQuerySchema,
  poolListQuerySchema,
  shareListQuerySchemas,
  trapListQuerySchema,
  userListQuerySchema,
} from './list-query-schemas.js';

const cases = [
  ['shares', shareListSpecs.all, shareListQuerySchemas.all],
  ['shares of a NAS', shareListSpecs.nas, shareListQuerySchemas.nas],
  ['shares of a pool', shareListSpecs.pool, shareListQuerySchemas.pool],
  ['NAS', nasListSpec, nasListQuerySchema],
  ['pools', poolListSpec, poolListQuerySchema],
  ['traps', trapListSpec, trapListQuerySchema],
  ['users', userListSpec, userListQuerySchema],
  ['API keys', apiKeyListSpec, apiKeyListQuerySchema],
] as const;

describe('list query schemas', () => {
  it.each(cases)('%s: the pagination of its ListSpec, sort_by and one optional string per filter', (_name, spec, schema) => {
    const paging = spec.pagination === 'limit_offset' ? ['limit', 'offset', 'page', 'per_page'] : ['page', 'per_page'];
    expect(Object.keys(schema.shape).sort()).toEqual([...paging, 'sort_by', ...spec.filterable].sort());
    expect(schema.parse({})).toEqual({});
  });
});
