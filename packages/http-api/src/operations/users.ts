import { userCollectionSchema, userCreateSchema, userListSpec, userSchema, userUpdateSchema } from '@dms/core';
import { listQueryParameters } from '../contracts/list-query-parameters.js';
import { collectionExample, userCreatePlaceholder, userExample, userUpdateExample } from '../contracts/examples.js';
import { crudOperations } from './crud-operations.js';

/** Users, for administrators. */
export const userOperations = crudOperations({
  path: '/users',
  param: 'user_id',
  tag: 'admin',
  controller: 'users',
  noun: 'user',
  query: listQueryParameters(userListSpec),
  schemas: { item: userSchema, collection: userCollectionSchema, create: userCreateSchema, update: userUpdateSchema },
  destroyErrors: [409],
  examples: { item: userExample, collection: collectionExample('users', userExample), create: userCreatePlaceholder, update: userUpdateExample },
  createRefused: 'a placeholder: add a password (8 characters or more); without one the server answers 422',
  notes: {
    list: 'Admin only.',
    create: 'Admin only.',
    update: "Admin only. A new password ends the user's JWTs.",
    destroy: 'Admin only; deleting the user revokes its keys.',
  },
  service: (core) => core.users,
  operations: {
    list: {
      operationId: 'listUsers',
      sdkSample: `const { count, users } = await dms.users.list({
  filter: { username: like('a%') },
  sortBy: 'created_at:desc',
});`,
    },
    create: {
      operationId: 'createUser',
      sdkSample: `const user = await dms.users.create({
  username: 'alice',
  password: 'a-long-password',
});`,
    },
    show: { operationId: 'showUser', sdkSample: `const user = await dms.users.get('alice');` },
    update: { operationId: 'updateUser', sdkSample: `const user = await dms.users.update('alice', { admin: true });` },
    destroy: { operationId: 'deleteUser', sdkSample: `await dms.users.delete('alice');` },
  },
});
