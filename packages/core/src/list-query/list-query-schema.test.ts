import { describe, expect, it } from 'vitest';
import { apiKeyListSpec } from '../domain/api-key.js';
import { corsRuleListSpec } from '../domain/cors-rule.js';
import { nasListSpec } from '../domain/nas.js';
import { poolListSpec } from '../domain/pool.js';
import { shareListSpecs } from '../domain/nas-share.js';
import { trapListSpec } from '../domain/trap.js';
import { userListSpec } from '../domain/user.js';
import { apiKeyListQuerySchema } from '../domain/api-key.js';
import { corsRuleListQuerySchema } from '../domain/cors-rule.js';
import { nasListQuerySchema } from '../domain/nas.js';
import { poolListQuerySchema } from '../domain/pool.js';
import { shareListQuerySchemas } from '../domain/nas-share.js';
import { trapListQuerySchema } from '../domain/trap.js';
import { userListQuerySchema } from '../domain/user.js';

const cases = [
  ['shares', shareListSpecs.all, shareListQuerySchemas.all],
  ['shares of a NAS', shareListSpecs.nas, shareListQuerySchemas.nas],
  ['shares of a pool', shareListSpecs.pool, shareListQuerySchemas.pool],
  ['NAS', nasListSpec, nasListQuerySchema],
  ['pools', poolListSpec, poolListQuerySchema],
  ['traps', trapListSpec, trapListQuerySchema],
  ['users', userListSpec, userListQuerySchema],
  ['API keys', apiKeyListSpec, apiKeyListQuerySchema],
  ['CORS rules', corsRuleListSpec, corsRuleListQuerySchema],
] as const;

describe('list query schemas', () => {
  it.each(cases)('%s: both pagination schemes, sort_by and one optional string per filter, in that order', (_name, spec, schema) => {
    expect(Object.keys(schema.shape)).toEqual(['limit', 'offset', 'page', 'per_page', 'sort_by', ...spec.filterable]);
    expect(schema.parse({})).toEqual({});
  });

  it.each(cases)('%s: sort_by names the sortable attributes', (_name, spec, schema) => {
    expect(schema.shape['sort_by']!.description).toContain(Object.keys(spec.fields).join(', '));
  });
});
