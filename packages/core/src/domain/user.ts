import { z } from 'zod';
import { looksLikeId, notIdLikeRule } from './common.js';
import { strictInput } from '../validation/strict-input.js';
import type { ListSpec } from '../list-query/list-query.js';
import { listFields } from '../list-query/list-fields.js';
import { listQuerySchema } from '../list-query/list-query-schema.js';
import { collectionSchema } from '../list-query/collection-schema.js';

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
  admin: boolean;
  /** A disabled user cannot sign in; its sessions and keys stop at their next request. */
  disabled: boolean;
  created_at: string;
}

// Input: what a client may send on create and update.
export const userCreateSchema = strictInput(z.object({ username: usernameSchema, password: passwordSchema, admin: z.boolean().default(false) }), {
  readOnly: ['id', 'disabled', 'created_at'],
});
// A user is not renamed: on update its username is read-only, like its id.
export const userUpdateSchema = strictInput(z.object({ password: passwordSchema, admin: z.boolean(), disabled: z.boolean() }).partial(), {
  readOnly: ['id', 'username', 'created_at'],
});

/** A user as every answer shows it: never the password hash (UserService's presentUser). */
export const userSchema = z
  .object({ id: z.number().int(), username: z.string(), admin: z.boolean(), disabled: z.boolean(), created_at: z.string() })
  .meta({ id: 'user' }) satisfies z.ZodType<User>;

export const userCollectionSchema = collectionSchema('users', userSchema).meta({ id: 'user_collection' });

// Lists: the attributes a list sorts and filters on, and the query parameters they give.
const { integer, string, boolean, timestamp } = listFields;

export const userListSpec: ListSpec = {
  fields: { id: integer, username: string, admin: boolean, disabled: boolean, created_at: timestamp },
  filterable: ['id', 'username', 'admin', 'disabled', 'created_at'],
};
export const userListQuerySchema = listQuerySchema(userListSpec);
