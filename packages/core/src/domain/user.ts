import { z } from 'zod';
import { looksLikeId, notIdLikeRule } from './common.js';
import { strictInput } from '../validation/strict-input.js';
import type { ListSpec } from '../list-query/list-query.js';
import { listFields } from '../list-query/list-fields.js';
import { listQuerySchema } from '../list-query/list-query-schema.js';
import { collectionSchema } from '../list-query/collection-schema.js';
import { roleNameSchema } from './api-key.js';

export const usernameSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9._@-]+$/, { message: 'may contain letters, digits and . _ @ -' })
  .refine((name) => !looksLikeId(name), notIdLikeRule);
export const passwordSchema = z.string().min(8).max(1024);

export interface User {
  id: number;
  username: string;
  /** True exactly for the role `admin`. */
  admin: boolean;
  /** A disabled user cannot sign in; its sessions and keys stop at their next request. */
  disabled: boolean;
  role: string;
  created_at: string;
}

// Input: what a client may send on create and update.
// `admin` is the older spelling of the role: true is `admin`, false any other (docs/decisions/176-roles.md).
export const userCreateSchema = strictInput(
  z.object({ username: usernameSchema, password: passwordSchema, admin: z.boolean().optional(), role: roleNameSchema.optional() }),
  { readOnly: ['id', 'disabled', 'created_at'] },
);
// A user is not renamed: on update its username is read-only, like its id.
export const userUpdateSchema = strictInput(z.object({ password: passwordSchema, admin: z.boolean(), role: roleNameSchema, disabled: z.boolean() }).partial(), {
  readOnly: ['id', 'username', 'created_at'],
});

/** A user as every answer shows it: never the password hash (UserService's presentUser). */
export const userSchema = z
  .object({
    id: z.number().int(),
    username: z.string(),
    admin: z.boolean().describe('true exactly for the role admin'),
    role: z.string().describe('admin, operator, auditor, viewer or a custom role (docs/api.md#roles)'),
    disabled: z.boolean(),
    created_at: z.string(),
  })
  .meta({ id: 'user' }) satisfies z.ZodType<User>;

export const userCollectionSchema = collectionSchema('users', userSchema).meta({ id: 'user_collection' });

// Lists: the attributes a list sorts and filters on, and the query parameters they give.
const { integer, string, boolean, timestamp } = listFields;

export const userListSpec: ListSpec = {
  fields: { id: integer, username: string, admin: boolean, role: string, disabled: boolean, created_at: timestamp },
  filterable: ['id', 'username', 'admin', 'role', 'disabled', 'created_at'],
};
export const userListQuerySchema = listQuerySchema(userListSpec);
