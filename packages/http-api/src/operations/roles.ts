import { roleCollectionSchema, roleCreateSchema, roleSchema, roleUpdateSchema } from '@dms/core';
import { respondEmpty, respondJson } from '../http/respond.js';
import { readJsonBody } from '../http/json-body.js';
import { collectionExample, roleCreateExample, roleExample, roleUpdateExample } from '../contracts/examples.js';
import { defineOperation } from './operation.js';

const builtIns = 'The built-in roles `admin`, `operator`, `auditor` and `viewer` are read-only: changing or deleting one is 409 (docs/api.md#roles).';
const adminChanges = 'Admin only: a user of the role admin, or an API key with the scope whose creator is one.';
const role = (c: Parameters<Parameters<typeof defineOperation>[0]['handle']>[0]) => c.req.param('role_name')!;

/** `/roles` (docs/api.md#roles, docs/decisions/176-roles.md): the built-in roles and custom ones, by name. */
export const roleOperations = [
  defineOperation({
    operationId: 'listRoles',
    sdkSample: `const { roles } = await dms.roles.list();`,
    handle: async (c, core) => respondJson(c, await core.roles.list(c.get('principal'))),
    method: 'get',
    path: '/roles',
    tag: 'admin',
    summary: 'List roles',
    description: `Every role with its \`scopes\`: the four built-in ones first (\`builtin: true\`), then the custom ones by name. \`count\` is the number of roles; the list takes no parameters (there are at most 100 custom roles).`,
    scope: { controller: 'roles', action: 'index' },
    success: { status: 200, description: 'role collection', schema: roleCollectionSchema, example: collectionExample('roles', roleExample) },
  }),
  defineOperation({
    operationId: 'createRole',
    sdkSample: `const role = await dms.roles.create({
  name: 'scanner',
  scopes: [{ controller: 'nas_shares', action: 'scan' }],
});`,
    handle: async (c, core) => respondJson(c, await core.roles.create(c.get('principal'), await readJsonBody(c)), 201),
    method: 'post',
    path: '/roles',
    tag: 'admin',
    summary: 'Create a custom role',
    description: `${adminChanges} \`name\` (a lower-case letter, then letters, digits, \`_\` or \`-\`) is unique and not a built-in's (409); \`scopes\` are scope catalogue pairs, as an API key's. Users and keys then take it as their \`role\`. A role never widens who manages users, roles, settings, CORS rules or channels: changing those stays the admin role's.`,
    scope: { controller: 'roles', action: 'create' },
    body: roleCreateSchema,
    bodyExample: roleCreateExample,
    success: { status: 201, description: 'role', schema: roleSchema, example: roleExample },
    errors: [409],
  }),
  defineOperation({
    operationId: 'showRole',
    sdkSample: `const role = await dms.roles.get('operator');`,
    handle: async (c, core) => respondJson(c, await core.roles.show(c.get('principal'), role(c))),
    method: 'get',
    path: '/roles/:role_name',
    tag: 'admin',
    summary: 'Show a role',
    description: 'A built-in or custom role by name, with its scopes as they are now.',
    scope: { controller: 'roles', action: 'show' },
    success: { status: 200, description: 'role', schema: roleSchema, example: roleExample },
  }),
  defineOperation({
    operationId: 'updateRole',
    sdkSample: `const role = await dms.roles.update('scanner', { description: 'nightly scans' });`,
    handle: async (c, core) => respondJson(c, await core.roles.update(c.get('principal'), role(c), await readJsonBody(c))),
    method: 'put',
    path: '/roles/:role_name',
    tag: 'admin',
    summary: 'Update a custom role (partial)',
    description: `${adminChanges} ${builtIns} \`description\` and \`scopes\` change; \`name\` is read-only (users and keys name the role). Its holders have the new scopes at their next request.`,
    scope: { controller: 'roles', action: 'update' },
    body: roleUpdateSchema,
    bodyExample: roleUpdateExample,
    success: { status: 200, description: 'role', schema: roleSchema, example: { ...roleExample, ...roleUpdateExample } },
    errors: [409],
  }),
  defineOperation({
    operationId: 'deleteRole',
    sdkSample: `await dms.roles.delete('scanner');`,
    handle: async (c, core) => {
      await core.roles.destroy(c.get('principal'), role(c));
      return respondEmpty(c, 204);
    },
    method: 'delete',
    path: '/roles/:role_name',
    tag: 'admin',
    summary: 'Delete a custom role',
    description: `${adminChanges} ${builtIns} A role that a user or an API key holds is not deleted (409, naming how many hold it): give them another role first.`,
    scope: { controller: 'roles', action: 'destroy' },
    success: { status: 204, description: 'deleted' },
    errors: [409],
  }),
];
